//! Bar charts: counts over labelled bins, such as a histogram of scores.

use crate::colour::{BLUE, GREY};
use crate::svg::{Svg, fixed};
use course_common::Float;

/// The words and numbers of a bar chart.
#[derive(Debug, Clone)]
pub struct Bars<'a> {
    /// The chart's title, read out by screen readers.
    pub title: &'a str,
    /// What it shows, read out by screen readers.
    pub description: &'a str,
    /// The label under each bar.
    pub labels: &'a [String],
    /// The height of each bar.
    pub counts: &'a [usize],
    /// The label under the axis of bins.
    pub x_label: &'a str,
}

/// Width of one bar's slot, in pixels.
const SLOT: Float = 34.0;
/// Margins: left, right, top, bottom.
const LEFT: Float = 28.0;
const RIGHT: Float = 8.0;
const TOP: Float = 12.0;
const BOTTOM: Float = 38.0;
/// Height of the plot area.
const PLOT: Float = 90.0;

/// A bar chart of `bars`: one bar per bin, its count written above it, the tallest bar
/// the full height, a baseline and the bins' labels below.
///
/// ```
/// use course_figures::bars::{Bars, bar_chart};
///
/// let labels: Vec<String> = ["0", "1"].iter().map(|s| s.to_string()).collect();
/// let svg = bar_chart(&Bars {
///     title: "Scores",
///     description: "How many students scored what",
///     labels: &labels,
///     counts: &[3, 1],
///     x_label: "score",
/// });
/// assert!(svg.contains(r#"<rect x="32.0" y="12.0" width="26.0" height="90.0""#));
/// assert!(svg.contains(">3</text>"));
/// ```
pub fn bar_chart(bars: &Bars<'_>) -> String {
    let n = bars.counts.len().max(1) as Float;
    let width = LEFT + RIGHT + SLOT * n;
    let height = TOP + PLOT + BOTTOM;
    let mut svg = Svg::new(fixed(width, 0), fixed(height, 0), 11);
    svg.title(bars.title, bars.description);
    svg.background(fixed(width, 0), fixed(height, 0));
    let tallest = bars.counts.iter().copied().max().unwrap_or(0).max(1) as Float;
    let baseline = TOP + PLOT;
    for (i, &count) in bars.counts.iter().enumerate() {
        let x = LEFT + SLOT * i as Float;
        let bar = PLOT * count as Float / tallest;
        if count > 0 {
            svg.rect(
                fixed(x + 4.0, 1),
                fixed(baseline - bar, 1),
                fixed(SLOT - 8.0, 1),
                fixed(bar, 1),
            )
            .attr("fill", BLUE)
            .end();
        }
        svg.text(
            fixed(x + SLOT / 2.0, 1),
            fixed((baseline - bar - 3.0).max(TOP - 1.0), 1),
        )
        .attr("text-anchor", "middle")
        .text(count);
        if let Some(label) = bars.labels.get(i) {
            svg.text(fixed(x + SLOT / 2.0, 1), fixed(baseline + 13.0, 1))
                .attr("text-anchor", "middle")
                .attr("fill", GREY)
                .text(label);
        }
    }
    svg.line(
        fixed(LEFT, 1),
        fixed(baseline, 1),
        fixed(width - RIGHT, 1),
        fixed(baseline, 1),
    )
    .attr("stroke", GREY)
    .end();
    svg.text(fixed(LEFT + SLOT * n / 2.0, 1), fixed(height - 6.0, 1))
        .attr("text-anchor", "middle")
        .text(bars.x_label);
    svg.finish()
}
