//! The engine's integration tests, one binary: properties of random games
//! of every preset, the random-move fast path against the full list of
//! legal moves, and the rule scenarios of `tests/conformance`.

mod conformance;
mod golden;
mod properties;
mod random_move;
