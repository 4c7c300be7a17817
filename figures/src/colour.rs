//! The course's colours: a palette for lines, and colour maps for heatmaps.

use course_common::Float;

/// Blue of the Okabe–Ito palette, whose colours stay apart for colour-blind readers.
pub const BLUE: &str = "#0072B2";
/// Vermillion of the Okabe–Ito palette.
pub const VERMILLION: &str = "#D55E00";
/// Bluish green of the Okabe–Ito palette.
pub const GREEN: &str = "#009E73";
/// Reddish purple of the Okabe–Ito palette.
pub const PURPLE: &str = "#CC79A7";
/// Orange of the Okabe–Ito palette.
pub const ORANGE: &str = "#E69F00";
/// The grey of notes and reference lines.
pub const GREY: &str = "#555555";

/// A map from numbers to colours, linear between its end colours (RGB, 0 to 255).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ColourMap {
    /// From `low` at 0 to `high` at 1; values outside are clamped.
    Sequential {
        /// The colour of 0.
        low: [Float; 3],
        /// The colour of 1.
        high: [Float; 3],
    },
    /// From `negative` at −1 through `middle` at 0 to `positive` at +1; values outside
    /// are clamped.
    Diverging {
        /// The colour of −1.
        negative: [Float; 3],
        /// The colour of 0.
        middle: [Float; 3],
        /// The colour of +1.
        positive: [Float; 3],
    },
}

/// White to dark blue, for weights between 0 and 1 (ColorBrewer's Blues).
pub const BLUES: ColourMap = ColourMap::Sequential {
    low: [247.0, 251.0, 255.0],
    high: [8.0, 48.0, 107.0],
};

/// Blue (−1) to near white (0) to red (+1), for signed values (ColorBrewer's RdBu).
pub const RED_BLUE: ColourMap = ColourMap::Diverging {
    negative: [33.0, 102.0, 172.0],
    middle: [247.0, 247.0, 247.0],
    positive: [178.0, 24.0, 43.0],
};

impl ColourMap {
    /// The colour of `value`, as `#rrggbb` in lower case.
    pub fn colour(&self, value: Float) -> String {
        let (from, to, t) = match *self {
            ColourMap::Sequential { low, high } => (low, high, value.clamp(0.0, 1.0)),
            ColourMap::Diverging {
                negative,
                middle,
                positive,
            } => {
                let v = value.clamp(-1.0, 1.0);
                if v < 0.0 {
                    (middle, negative, -v)
                } else {
                    (middle, positive, v)
                }
            }
        };
        let mix = |i: usize| (from[i] + (to[i] - from[i]) * t).round() as u8;
        format!("#{:02x}{:02x}{:02x}", mix(0), mix(1), mix(2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_maps_reach_their_end_colours_and_clamp_beyond() {
        assert_eq!(BLUES.colour(0.0), "#f7fbff");
        assert_eq!(BLUES.colour(1.0), "#08306b");
        assert_eq!(BLUES.colour(2.0), "#08306b");
        assert_eq!(BLUES.colour(0.5), "#8096b5");
        assert_eq!(RED_BLUE.colour(-1.0), "#2166ac");
        assert_eq!(RED_BLUE.colour(0.0), "#f7f7f7");
        assert_eq!(RED_BLUE.colour(1.0), "#b2182b");
        assert_eq!(RED_BLUE.colour(-3.0), "#2166ac");
    }
}
