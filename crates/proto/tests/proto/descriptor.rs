//! `FILE_DESCRIPTOR_SET` feeds tonic-reflection: it must decode and describe
//! both services, with the well-known types it imports.

use prost::Message;
use prost_types::FileDescriptorSet;

fn descriptor_set() -> FileDescriptorSet {
    FileDescriptorSet::decode(skit_proto::FILE_DESCRIPTOR_SET).expect("valid descriptor set")
}

fn service_names(set: &FileDescriptorSet) -> Vec<String> {
    set.file
        .iter()
        .flat_map(|file| {
            file.service
                .iter()
                .map(move |service| format!("{}.{}", file.package(), service.name()))
        })
        .collect()
}

#[test]
fn lists_both_services() {
    let names = service_names(&descriptor_set());
    assert!(
        names.contains(&"skitgubbe.v1.GameService".to_owned()),
        "{names:?}"
    );
    assert!(
        names.contains(&"skitgubbe.v1.AccountService".to_owned()),
        "{names:?}"
    );
}

#[test]
fn is_self_contained() {
    let set = descriptor_set();
    let files: Vec<&str> = set.file.iter().map(|file| file.name()).collect();
    for import in set.file.iter().flat_map(|file| &file.dependency) {
        assert!(
            files.contains(&import.as_str()),
            "{import} missing from {files:?}"
        );
    }
}
