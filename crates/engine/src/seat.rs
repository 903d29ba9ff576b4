//! Seats and sets of seats.

/// A seat at the table, 0..n-1 clockwise. At most [`MAX_SEATS`].
pub type Seat = u8;

/// The most players any preset allows.
pub const MAX_SEATS: usize = 8;

/// A set of seats as an 8-bit mask.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(u8);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);

    /// Seats `0..n`.
    pub const fn first(n: u8) -> SeatSet {
        SeatSet(((1u16 << n) - 1) as u8)
    }

    pub(crate) const fn from_bits(bits: u8) -> SeatSet {
        SeatSet(bits)
    }

    pub const fn bits(self) -> u8 {
        self.0
    }

    pub const fn contains(self, seat: Seat) -> bool {
        self.0 >> seat & 1 == 1
    }

    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat;
    }

    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !(1 << seat);
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn union(self, other: SeatSet) -> SeatSet {
        SeatSet(self.0 | other.0)
    }

    pub const fn intersect(self, other: SeatSet) -> SeatSet {
        SeatSet(self.0 & other.0)
    }

    pub const fn minus(self, other: SeatSet) -> SeatSet {
        SeatSet(self.0 & !other.0)
    }

    /// The first seat of the set at or after `from`, going clockwise among `n` seats.
    #[inline]
    pub fn next_from(self, from: Seat, n: u8) -> Option<Seat> {
        let bits = u16::from(self.0) & ((1u16 << n) - 1);
        if bits == 0 {
            return None;
        }
        let at_or_after = bits & !((1u16 << from.min(n)) - 1);
        let pick = if at_or_after != 0 { at_or_after } else { bits };
        Some(pick.trailing_zeros() as Seat)
    }

    /// Seats ascending.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..8u8).filter(move |&s| self.contains(s))
    }
}

impl std::fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> SeatSet {
        let mut set = SeatSet::EMPTY;
        for seat in iter {
            set.insert(seat);
        }
        set
    }
}
