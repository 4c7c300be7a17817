use crate::Cause;

/// Cosine at the even columns: named by the table's checks.
pub const SWAPPED: Cause = Cause::harness("sin-cos-swapped");

/// The tensor2tensor layout: named by the table's checks.
pub const CONCATENATED: Cause = Cause::harness("table-concatenated");

/// Every frequency 1: named by the frequencies' and the table's checks.
pub const INTEGER_DIVISION: Cause = Cause::harness("integer-division");

/// Frequencies that fall too slowly: named by the frequencies' and the table's checks.
pub const EXPONENT_I: Cause = Cause::harness("exponent-i");

/// A frequency per column instead of per pair.
pub const EXPONENT_COLUMN: Cause = Cause::harness("exponent-column");

/// Twice the column index in the exponent.
pub const EXPONENT_TWO_COLUMNS: Cause = Cause::harness("exponent-two-columns");

/// Frequencies above 1: named by the frequencies' and the table's checks.
pub const POSITIVE_EXPONENT: Cause = Cause::harness("positive-exponent");

/// Positions from 1.
pub const FROM_ONE: Cause = Cause::harness("positions-from-one");
