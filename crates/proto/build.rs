//! Generates the `skitgubbe.v1` Rust code from `proto/` at the workspace root,
//! the single source of truth, without a system `protoc`: `protox` parses the
//! files into a descriptor set, from which `tonic-prost-build` writes the
//! prost messages and tonic stubs and `pbjson-build` the serde impls that
//! follow the protobuf JSON mapping. It also writes, per service, a
//! function that names each RPC's call on any implementation (`rpcs.rs`),
//! so a server can dispatch by the descriptors (the REST transcoder)
//! without a hand-written line per RPC.

use std::{env, error::Error, fmt::Write as _, fs, path::PathBuf};

use heck::ToSnakeCase;
use prost_types::FileDescriptorSet;

const FILES: &[&str] = &[
    "skitgubbe/v1/annotations.proto",
    "skitgubbe/v1/rules.proto",
    "skitgubbe/v1/view.proto",
    "skitgubbe/v1/export.proto",
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
    fs::write(out_dir.join("rpcs.rs"), rpcs(&fds)?)?;

    tonic_prost_build::configure()
        // google.protobuf.* come from pbjson-types, whose types carry the
        // JSON mapping's special forms (Struct as an object, Timestamp as
        // RFC 3339, Duration as "1.5s"). Turning on "well-known types" only
        // stops prost from mapping them to prost-types itself.
        .compile_well_known_types(true)
        // Except Timestamp, which pbjson-types writes with `+00:00`: the
        // crate's own type writes the mapping's `Z` form.
        .extern_path(".google.protobuf.Timestamp", "crate::Timestamp")
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

/// For each service of `skitgubbe.v1`, `visit_<service>`: every RPC handed
/// to a [`Visitor`](crate::rpcs::Visitor) as its name and a call on the
/// service trait.
fn rpcs(fds: &FileDescriptorSet) -> Result<String, Box<dyn Error>> {
    let mut out = String::new();
    for file in fds.file.iter().filter(|f| f.package() == "skitgubbe.v1") {
        for service in &file.service {
            let name = service.name();
            let module = format!("{}_server", name.to_snake_case());
            writeln!(
                out,
                "/// Every RPC of `skitgubbe.v1.{name}`, in the order the proto declares them.\n\
                 pub fn visit_{snake}<S, V>(visitor: &mut V)\n\
                 where\n    S: crate::v1::{module}::{name},\n    V: Visitor<S>,\n{{",
                snake = name.to_snake_case(),
            )?;
            for method in &service.method {
                let rpc = method.name();
                let call = rpc.to_snake_case();
                let input = rust_type(method.input_type())?;
                let output = rust_type(method.output_type())?;
                if method.client_streaming() {
                    return Err(format!("{name}.{rpc}: client streaming is not served").into());
                }
                if method.server_streaming() {
                    writeln!(
                        out,
                        "    visitor.server_streaming::<{input}, {output}>(\"skitgubbe.v1.{name}\", \"{rpc}\", |s, r| {{\n\
                         \x20       Box::pin(async move {{\n\
                         \x20           let response = s.{call}(r).await?;\n\
                         \x20           Ok(response.map(|stream| -> tonic::codegen::BoxStream<{output}> {{ Box::pin(stream) }}))\n\
                         \x20       }})\n    }});"
                    )?;
                } else {
                    writeln!(
                        out,
                        "    visitor.unary::<{input}, {output}>(\"skitgubbe.v1.{name}\", \"{rpc}\", |s, r| {{\n\
                         \x20       Box::pin(async move {{ s.{call}(r).await }})\n    }});"
                    )?;
                }
            }
            writeln!(out, "}}\n")?;
        }
    }
    Ok(out)
}

/// The Rust path of a `skitgubbe.v1` top-level message.
fn rust_type(full_name: &str) -> Result<String, Box<dyn Error>> {
    match full_name.strip_prefix(".skitgubbe.v1.") {
        Some(name) if !name.contains('.') => Ok(format!("crate::v1::{name}")),
        _ => Err(format!("{full_name}: an RPC's messages are top-level skitgubbe.v1 ones").into()),
    }
}
