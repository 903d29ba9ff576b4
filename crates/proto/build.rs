//! Generates the `skitgubbe.v1` Rust code from `proto/` at the workspace root,
//! the single source of truth, without a system `protoc`: `protox` parses the
//! files into a descriptor set, from which `tonic-prost-build` writes the
//! prost messages and tonic stubs and `pbjson-build` the serde impls that
//! follow the protobuf JSON mapping.

use std::{env, error::Error, fs, path::PathBuf};

const FILES: &[&str] = &[
    "skitgubbe/v1/annotations.proto",
    "skitgubbe/v1/rules.proto",
    "skitgubbe/v1/view.proto",
    "skitgubbe/v1/game.proto",
    "skitgubbe/v1/account.proto",
    "skitgubbe/v1/rating.proto",
    "skitgubbe/v1/matchmaking.proto",
    "skitgubbe/v1/admin.proto",
    "skitgubbe/v1/league.proto",
];

fn main() -> Result<(), Box<dyn Error>> {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR")?).join("../../proto");
    let out_dir = PathBuf::from(env::var("OUT_DIR")?);
    println!("cargo:rerun-if-changed={}", root.display());
    for file in FILES {
        println!("cargo:rerun-if-changed={}", root.join(file).display());
    }

    // Imports (the well-known types, bundled with protox) are included so the
    // set is self-contained for reflection. The bytes come from protox's own
    // encoding: prost's `FieldOptions` would drop the extension options
    // (`(skitgubbe.v1.required)`) the OpenAPI document reads.
    let mut compiler = protox::Compiler::new([&root])?;
    compiler
        .include_source_info(true)
        .include_imports(true)
        .open_files(FILES)?;
    let fds = compiler.file_descriptor_set();
    let descriptor_bytes = compiler.encode_file_descriptor_set();
    fs::write(out_dir.join("skitgubbe_descriptor.bin"), &descriptor_bytes)?;

    tonic_prost_build::configure()
        // google.protobuf.* come from pbjson-types, whose types carry the
        // JSON mapping's special forms (Struct as an object, Timestamp as
        // RFC 3339, Duration as "1.5s"). Turning on "well-known types" only
        // stops prost from mapping them to prost-types itself.
        .compile_well_known_types(true)
        .extern_path(".google.protobuf", "::pbjson_types")
        .compile_fds(fds)?;

    pbjson_build::Builder::new()
        .register_descriptors(&descriptor_bytes)?
        // Every field at its default value is written too (`"version": "0"`,
        // `"seat": 0`, `false`, `[]`), as the JSON mapping allows: a plain
        // client reads `view["seat"]` without knowing proto3's defaults.
        // Fields with presence (`optional`, messages, oneofs) are still
        // left out while unset. Parsing still accepts omitted fields.
        .emit_fields()
        .build(&[".skitgubbe"])?;
    Ok(())
}
