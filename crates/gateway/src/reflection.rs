//! gRPC server reflection, in both versions clients speak: `grpc.reflection.v1`
//! (grpcurl, Postman) and `grpc.reflection.v1alpha` (Python's
//! `grpcio-reflection`, older tools), so every such tool can discover the
//! API without the `.proto` files.
//!
//! Each port lists only what it serves: its own API services, the health
//! service and both reflection services. The descriptors of every
//! `skitgubbe.v1` file stay resolvable, so a listed service's messages
//! (which other files define) can be fetched too.

use tonic_reflection::pb::{v1, v1alpha};
use tonic_reflection::server::{Builder, Error};

/// The health service, served on every port beside the API.
pub const HEALTH_SERVICE: &str = "grpc.health.v1.Health";
/// The two reflection services themselves.
pub const REFLECTION_SERVICES: [&str; 2] = [
    "grpc.reflection.v1.ServerReflection",
    "grpc.reflection.v1alpha.ServerReflection",
];

/// The v1 and v1alpha reflection services for a port serving `services`
/// (fully qualified names, e.g. `skitgubbe.v1.GameService`). Add both to
/// the port's gRPC routes.
pub fn services(
    services: &[&str],
) -> Result<
    (
        v1::server_reflection_server::ServerReflectionServer<
            impl v1::server_reflection_server::ServerReflection,
        >,
        v1alpha::server_reflection_server::ServerReflectionServer<
            impl v1alpha::server_reflection_server::ServerReflection,
        >,
    ),
    Error,
> {
    Ok((
        builder(services).build_v1()?,
        builder(services).build_v1alpha()?,
    ))
}

/// Listed: `services`, health and both reflection versions. Registered:
/// every descriptor those names need, in either version, so whatever one
/// version lists the other can describe.
fn builder<'a>(services: &[&str]) -> Builder<'a> {
    let listed = services
        .iter()
        .copied()
        .chain([HEALTH_SERVICE])
        .chain(REFLECTION_SERVICES);
    listed.fold(
        Builder::configure()
            .register_encoded_file_descriptor_set(skit_proto::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(v1::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(v1alpha::FILE_DESCRIPTOR_SET)
            // Registered above, for both versions alike.
            .include_reflection_service(false),
        |builder, name| builder.with_service_name(name),
    )
}
