//! The game state is small and `Copy`, so checks can apply actions to
//! copies.

use skit_engine::State;

#[test]
fn state_is_small_and_copy() {
    fn copy<T: Copy>() {}
    copy::<State>();
    let size = std::mem::size_of::<State>();
    assert!(size < 256, "State is {size} bytes");
}
