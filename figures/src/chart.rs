//! Line charts: panels side by side, each with two axes (linear or logarithmic), grid
//! lines at the ticks, lines with or without markers, and a legend.
//!
//! ```
//! use course_figures::chart::{Axis, ChartStyle, Corner, Panel, Series, line_chart};
//! use course_figures::colour::BLUE;
//!
//! let panel = Panel {
//!     title: "Squares".to_owned(),
//!     x: Axis::linear("n", 0.0, 4.0),
//!     y: Axis::log("n² (log scale)", 1.0, 100.0),
//!     series: vec![Series::line("n²", BLUE, vec![(1.0, 1.0), (2.0, 4.0), (3.0, 9.0)])],
//!     legend: Corner::TopLeft,
//!     note: None,
//! };
//! let svg = line_chart("Squares", "n squared against n.", &[panel], &ChartStyle::default());
//! assert!(svg.contains(r##"<path d="M161.5 288.0 L249.0 211.5 L336.5 166.8" stroke="#0072B2""##));
//! ```

use crate::colour::GREY;
use crate::svg::{Svg, fixed, path_data};
use course_common::Float;

/// One line of a panel.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Its legend entry; an empty label has none (a line that repeats another's).
    pub label: String,
    /// Its colour, such as [`crate::colour::BLUE`].
    pub color: &'static str,
    /// Dashed lines are bounds or references, solid ones are measurements.
    pub dashed: bool,
    /// Whether a dot marks each point.
    pub markers: bool,
    /// The points, in data units, joined in this order.
    pub points: Vec<(Float, Float)>,
}

impl Series {
    /// A solid line without markers.
    pub fn line(
        label: impl Into<String>,
        color: &'static str,
        points: Vec<(Float, Float)>,
    ) -> Self {
        Self {
            label: label.into(),
            color,
            dashed: false,
            markers: false,
            points,
        }
    }

    /// The same line, dashed.
    pub fn dashed(mut self) -> Self {
        self.dashed = true;
        self
    }

    /// The same line, with a dot at each point.
    pub fn with_markers(mut self) -> Self {
        self.markers = true;
        self
    }
}

/// One axis of a panel: its label, its range, linear or logarithmic, and its ticks.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The text along the axis.
    pub label: String,
    /// The value at the axis's start (left or bottom).
    pub min: Float,
    /// The value at the axis's end.
    pub max: Float,
    /// Whether values are placed by their logarithm.
    pub log: bool,
    /// The ticks as (value, label) pairs; `None` picks them (see [`ticks`]). A label is
    /// SVG markup, such as [`power_label`]'s.
    pub ticks: Option<Vec<(Float, String)>>,
}

impl Axis {
    /// A linear axis from `min` to `max`, with round ticks.
    pub fn linear(label: impl Into<String>, min: Float, max: Float) -> Self {
        Self {
            label: label.into(),
            min,
            max,
            log: false,
            ticks: None,
        }
    }

    /// A logarithmic axis from `min` to `max` (both positive), with ticks at powers of
    /// ten.
    pub fn log(label: impl Into<String>, min: Float, max: Float) -> Self {
        Self {
            log: true,
            ..Self::linear(label, min, max)
        }
    }

    /// The same axis with these ticks.
    pub fn with_ticks(mut self, ticks: Vec<(Float, String)>) -> Self {
        self.ticks = Some(ticks);
        self
    }

    /// Maps a value of this axis to a pixel between `from` (at `min`) and `to` (at
    /// `max`).
    fn place(&self, value: Float, from: Float, to: Float) -> Float {
        let (v, min, max) = if self.log {
            (value.log10(), self.min.log10(), self.max.log10())
        } else {
            (value, self.min, self.max)
        };
        from + (v - min) / (max - min) * (to - from)
    }
}

/// Where a panel's legend goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corner {
    /// Inside the plot area, top right.
    TopRight,
    /// Inside the plot area, bottom left.
    BottomLeft,
    /// Inside the plot area, bottom right.
    BottomRight,
    /// Inside the plot area, top left.
    TopLeft,
    /// To the right of the plot area, outside it: the panel grows to make room.
    Outside,
}

/// One plot: a title, two axes, its lines and their legend.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// The bold line above the plot.
    pub title: String,
    /// The horizontal axis.
    pub x: Axis,
    /// The vertical axis.
    pub y: Axis,
    /// The lines, drawn in this order (the last on top).
    pub series: Vec<Series>,
    /// Where the legend goes.
    pub legend: Corner,
    /// A last line of the legend, without a sample line (such as "dashed: bounds").
    pub note: Option<String>,
}

/// How a chart looks: the sizes and the small choices that differ between figures.
/// `ChartStyle::default()` is the look of most of the book's line charts.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartStyle {
    /// The width of one panel, legend outside it excluded.
    pub panel_width: Float,
    /// The height of the document.
    pub height: Float,
    /// Room left of the plot area, for the tick labels and the axis label.
    pub left: Float,
    /// Room right of the plot area.
    pub right: Float,
    /// Room above the plot area, for the title.
    pub top: Float,
    /// Room below the plot area, for the tick labels and the axis label.
    pub bottom: Float,
    /// Whether the lines are clipped to the plot area (in a group that clips them);
    /// otherwise each line is a path of its own.
    pub clip: bool,
    /// The radius of the markers.
    pub marker_radius: Float,
    /// Whether markers say `stroke="none"`.
    pub marker_no_stroke: bool,
    /// The legend's box.
    pub legend: LegendStyle,
}

/// How a legend's box looks.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendStyle {
    /// The gap between the box and the corner of the plot area it sits in.
    pub inset: Float,
    /// A fixed width (written as given); `None` fits the box to its longest line.
    pub width: Option<Float>,
    /// The colour of the box's border.
    pub border: &'static str,
    /// The colour of the labels, if not the document's.
    pub label_fill: Option<&'static str>,
}

impl Default for ChartStyle {
    fn default() -> Self {
        Self {
            panel_width: 440.0,
            height: 340.0,
            left: 74.0,
            right: 16.0,
            top: 34.0,
            bottom: 52.0,
            clip: true,
            marker_radius: 2.6,
            marker_no_stroke: true,
            legend: LegendStyle {
                inset: 6.0,
                width: None,
                border: "#bbb",
                label_fill: None,
            },
        }
    }
}

/// The panels side by side as one SVG document, with a title and a description for
/// screen readers.
pub fn line_chart(
    title: &str,
    description: &str,
    panels: &[Panel],
    style: &ChartStyle,
) -> String {
    let width: Float = panels.iter().map(|p| panel_width(p, style)).sum();
    let (width, height) = (fixed(width, 0), fixed(style.height, 0));
    let mut svg = Svg::new(width, height, 12);
    svg.title(title, description);
    svg.background(width, height);
    let mut dx = 0.0;
    for (index, panel) in panels.iter().enumerate() {
        draw_panel(&mut svg, panel, style, index, dx);
        dx += panel_width(panel, style);
    }
    svg.finish()
}

/// The legend's width and height.
fn legend_size(panel: &Panel, style: &ChartStyle) -> (Float, Float) {
    let entries = panel.series.iter().filter(|s| !s.label.is_empty());
    let rows = (entries.clone().count() + usize::from(panel.note.is_some())) as Float;
    let longest = entries
        .map(|s| text_columns(&s.label) + 6)
        .chain(panel.note.iter().map(|n| text_columns(n)))
        .max()
        .unwrap_or(0) as Float;
    let width = style.legend.width.unwrap_or(longest * 6.4 + 12.0);
    (width, rows * 17.0 + 8.0)
}

/// The width of `text` in columns of Latin text: a Chinese character (or a full-width
/// sign) is two.
fn text_columns(text: &str) -> usize {
    text.chars().map(|c| if is_wide(c) { 2 } else { 1 }).sum()
}

/// Whether `c` is as wide as two Latin letters: CJK ideographs, their punctuation and
/// full-width forms.
fn is_wide(c: char) -> bool {
    matches!(c, '\u{2e80}'..='\u{303f}' | '\u{3400}'..='\u{9fff}' | '\u{f900}'..='\u{faff}' | '\u{ff00}'..='\u{ff60}')
}

/// A panel's width: the plot, and its legend if that sits outside.
fn panel_width(panel: &Panel, style: &ChartStyle) -> Float {
    match panel.legend {
        Corner::Outside => style.panel_width + legend_size(panel, style).0 + 8.0,
        _ => style.panel_width,
    }
}

/// Tick positions and labels of an axis without ticks of its own: powers of ten on a
/// log axis (every second, fourth or eighth one if there are many), round numbers (1, 2
/// or 5 times a power of ten apart, about six of them) on a linear one.
pub fn ticks(axis: &Axis) -> Vec<(Float, String)> {
    if axis.log {
        let (lo, hi) = (
            axis.min.log10().ceil() as i32,
            axis.max.log10().floor() as i32,
        );
        let every = match hi - lo {
            0..=8 => 1,
            9..=16 => 2,
            17..=32 => 4,
            _ => 8,
        };
        (lo..=hi)
            .filter(|e| e.rem_euclid(every) == 0)
            .map(|e| ((10.0 as Float).powi(e), power_label(e)))
            .collect()
    } else {
        let span = axis.max - axis.min;
        let raw = span / 6.0;
        let magnitude = (10.0 as Float).powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * magnitude)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * magnitude);
        let first = (axis.min / step).ceil() as i64;
        let last = (axis.max / step + 1e-9).floor() as i64;
        (first..=last)
            .map(|k| {
                let v = k as Float * step;
                (v, trim(v))
            })
            .collect()
    }
}

/// Ticks at every power of ten from `10^lo` to `10^hi`, labelled by [`power_label`].
pub fn decade_ticks(lo: i32, hi: i32) -> Vec<(Float, String)> {
    (lo..=hi)
        .map(|e| ((10.0 as Float).powi(e), power_label(e)))
        .collect()
}

/// `10^e` as SVG text, the exponent raised in a `<tspan>`; 1 to 1000 written out.
pub fn power_label(e: i32) -> String {
    match e {
        0 => "1".to_owned(),
        1 => "10".to_owned(),
        2 => "100".to_owned(),
        3 => "1000".to_owned(),
        _ => {
            let exponent = e.to_string().replace('-', "−");
            format!(r#"10<tspan dy="-5" font-size="9">{exponent}</tspan>"#)
        }
    }
}

/// A tick value with at most six decimals and no trailing zeros (`0.5`, `20`).
fn trim(v: Float) -> String {
    let text = format!("{v:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

fn draw_panel(svg: &mut Svg, panel: &Panel, style: &ChartStyle, index: usize, dx: Float) {
    let (x0, x1) = (dx + style.left, dx + style.panel_width - style.right);
    let (y0, y1) = (style.top, style.height - style.bottom);
    let one = |v: Float| fixed(v, 1);
    let clip = format!("plot-area-{index}");
    if style.clip {
        svg.raw(&format!(
            r#"<clipPath id="{clip}"><rect x="{x0:.1}" y="{y0:.1}" width="{:.1}" height="{:.1}"/></clipPath>"#,
            x1 - x0,
            y1 - y0
        ));
    }
    svg.text(one((x0 + x1) / 2.0), 20)
        .attr("text-anchor", "middle")
        .attr("font-weight", "bold")
        .attr("font-size", 13)
        .text(&panel.title);
    // Grid and ticks.
    let x_ticks = panel.x.ticks.clone().unwrap_or_else(|| ticks(&panel.x));
    for (v, label) in x_ticks {
        let x = one(panel.x.place(v, x0, x1));
        svg.line(x, one(y0), x, one(y1))
            .attr("stroke", "#e6e6e6")
            .end();
        svg.text(x, one(y1 + 16.0))
            .attr("text-anchor", "middle")
            .markup(&label);
    }
    let y_ticks = panel.y.ticks.clone().unwrap_or_else(|| ticks(&panel.y));
    for (v, label) in y_ticks {
        let y = panel.y.place(v, y1, y0);
        svg.line(one(x0), one(y), one(x1), one(y))
            .attr("stroke", "#e6e6e6")
            .end();
        svg.text(one(x0 - 6.0), one(y + 4.0))
            .attr("text-anchor", "end")
            .markup(&label);
    }
    // Axes.
    svg.rect(one(x0), one(y0), one(x1 - x0), one(y1 - y0))
        .attr("fill", "none")
        .attr("stroke", "#333")
        .end();
    svg.text(one((x0 + x1) / 2.0), one(style.height - 14.0))
        .attr("text-anchor", "middle")
        .text(&panel.x.label);
    let (lx, ly) = (one(dx + 16.0), one((y0 + y1) / 2.0));
    svg.text(lx, ly)
        .attr("text-anchor", "middle")
        .attr("transform", format!("rotate(-90 {lx} {ly})"))
        .text(&panel.y.label);
    // Lines.
    if style.clip {
        svg.tag("g")
            .attr("clip-path", format!("url(#{clip})"))
            .attr("fill", "none")
            .open();
    }
    let dash = |series: &Series| series.dashed.then_some("6 4");
    for series in &panel.series {
        let points: Vec<(Float, Float)> = series
            .points
            .iter()
            .filter(|(x, y)| (!panel.x.log || *x > 0.0) && (!panel.y.log || *y > 0.0))
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .map(|&(x, y)| (panel.x.place(x, x0, x1), panel.y.place(y, y1, y0)))
            .collect();
        svg.tag("path")
            .attr("d", path_data(&points))
            .attr_opt("fill", (!style.clip).then_some("none"))
            .attr("stroke", series.color)
            .attr("stroke-width", 2)
            .attr_opt("stroke-dasharray", dash(series))
            .end();
        if series.markers {
            for &(x, y) in &points {
                svg.circle(one(x), one(y), style.marker_radius)
                    .attr("fill", series.color)
                    .attr_opt("stroke", style.marker_no_stroke.then_some("none"))
                    .end();
            }
        }
    }
    if style.clip {
        svg.close("g");
    }
    // Legend: the labelled series, then the note.
    let entries: Vec<&Series> = panel
        .series
        .iter()
        .filter(|s| !s.label.is_empty())
        .collect();
    let legend = &style.legend;
    let (w, h) = legend_size(panel, style);
    let (bx, by) = match panel.legend {
        Corner::TopRight => (x1 - w - legend.inset, y0 + legend.inset),
        Corner::TopLeft => (x0 + legend.inset, y0 + legend.inset),
        Corner::BottomLeft => (x0 + legend.inset, y1 - h - legend.inset),
        Corner::BottomRight => (x1 - w - legend.inset, y1 - h - legend.inset),
        Corner::Outside => (x1 + 8.0, y0),
    };
    let width = match legend.width {
        Some(width) => width.to_string(),
        None => one(w).to_string(),
    };
    svg.rect(one(bx), one(by), width, one(h))
        .attr("fill", "#ffffff")
        .attr("fill-opacity", 0.9)
        .attr("stroke", legend.border)
        .end();
    for (i, series) in entries.iter().enumerate() {
        let y = by + 14.0 + 17.0 * i as Float;
        svg.line(one(bx + 6.0), one(y - 4.0), one(bx + 30.0), one(y - 4.0))
            .attr("stroke", series.color)
            .attr("stroke-width", 2)
            .attr_opt("stroke-dasharray", dash(series))
            .end();
        svg.text(one(bx + 36.0), one(y))
            .attr_opt("fill", legend.label_fill)
            .text(&series.label);
    }
    if let Some(note) = &panel.note {
        let y = by + 14.0 + 17.0 * entries.len() as Float;
        svg.text(one(bx + 6.0), one(y))
            .attr("fill", GREY)
            .text(note);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::colour::{BLUE, VERMILLION};

    fn panel(legend: Corner) -> Panel {
        Panel {
            title: "A & B".to_owned(),
            x: Axis::linear("x", 0.0, 10.0),
            y: Axis::log("y", 1.0, 100.0),
            series: vec![
                Series::line(
                    "measured",
                    BLUE,
                    vec![(0.0, 1.0), (10.0, 100.0), (5.0, 0.0)],
                )
                .with_markers(),
                Series::line("", VERMILLION, vec![(0.0, 10.0), (10.0, 10.0)]).dashed(),
            ],
            legend,
            note: Some("dashed: ten".to_owned()),
        }
    }

    #[test]
    fn a_panel_with_its_ticks_lines_markers_and_legend() {
        let svg =
            line_chart("T", "D", &[panel(Corner::TopRight)], &ChartStyle::default());
        let expected = r##"<svg xmlns="http://www.w3.org/2000/svg" width="440" height="340" viewBox="0 0 440 340" font-family="Helvetica, Arial, sans-serif" font-size="12" fill="#1a1a1a">
  <title>T</title>
  <desc>D</desc>
  <rect x="0" y="0" width="440" height="340" fill="#ffffff"/>
  <clipPath id="plot-area-0"><rect x="74.0" y="34.0" width="350.0" height="254.0"/></clipPath>
  <text x="249.0" y="20" text-anchor="middle" font-weight="bold" font-size="13">A &amp; B</text>
  <line x1="74.0" y1="34.0" x2="74.0" y2="288.0" stroke="#e6e6e6"/>
  <text x="74.0" y="304.0" text-anchor="middle">0</text>
  <line x1="144.0" y1="34.0" x2="144.0" y2="288.0" stroke="#e6e6e6"/>
  <text x="144.0" y="304.0" text-anchor="middle">2</text>
  <line x1="214.0" y1="34.0" x2="214.0" y2="288.0" stroke="#e6e6e6"/>
  <text x="214.0" y="304.0" text-anchor="middle">4</text>
  <line x1="284.0" y1="34.0" x2="284.0" y2="288.0" stroke="#e6e6e6"/>
  <text x="284.0" y="304.0" text-anchor="middle">6</text>
  <line x1="354.0" y1="34.0" x2="354.0" y2="288.0" stroke="#e6e6e6"/>
  <text x="354.0" y="304.0" text-anchor="middle">8</text>
  <line x1="424.0" y1="34.0" x2="424.0" y2="288.0" stroke="#e6e6e6"/>
  <text x="424.0" y="304.0" text-anchor="middle">10</text>
  <line x1="74.0" y1="288.0" x2="424.0" y2="288.0" stroke="#e6e6e6"/>
  <text x="68.0" y="292.0" text-anchor="end">1</text>
  <line x1="74.0" y1="161.0" x2="424.0" y2="161.0" stroke="#e6e6e6"/>
  <text x="68.0" y="165.0" text-anchor="end">10</text>
  <line x1="74.0" y1="34.0" x2="424.0" y2="34.0" stroke="#e6e6e6"/>
  <text x="68.0" y="38.0" text-anchor="end">100</text>
  <rect x="74.0" y="34.0" width="350.0" height="254.0" fill="none" stroke="#333"/>
  <text x="249.0" y="326.0" text-anchor="middle">x</text>
  <text x="16.0" y="161.0" text-anchor="middle" transform="rotate(-90 16.0 161.0)">y</text>
  <g clip-path="url(#plot-area-0)" fill="none">
    <path d="M74.0 288.0 L424.0 34.0" stroke="#0072B2" stroke-width="2"/>
    <circle cx="74.0" cy="288.0" r="2.6" fill="#0072B2" stroke="none"/>
    <circle cx="424.0" cy="34.0" r="2.6" fill="#0072B2" stroke="none"/>
    <path d="M74.0 161.0 L424.0 161.0" stroke="#D55E00" stroke-width="2" stroke-dasharray="6 4"/>
  </g>
  <rect x="316.4" y="40.0" width="101.6" height="42.0" fill="#ffffff" fill-opacity="0.9" stroke="#bbb"/>
  <line x1="322.4" y1="50.0" x2="346.4" y2="50.0" stroke="#0072B2" stroke-width="2"/>
  <text x="352.4" y="54.0">measured</text>
  <text x="322.4" y="71.0" fill="#555555">dashed: ten</text>
</svg>
"##;
        assert_eq!(svg, expected);
    }

    #[test]
    fn the_unclipped_style_draws_each_path_with_its_own_fill_and_a_fixed_legend() {
        let style = ChartStyle {
            clip: false,
            marker_radius: 3.0,
            marker_no_stroke: false,
            legend: LegendStyle {
                inset: 8.0,
                width: Some(236.0),
                border: "#cccccc",
                label_fill: Some(GREY),
            },
            ..ChartStyle::default()
        };
        let mut panel = panel(Corner::TopLeft);
        panel.note = None;
        panel.x = panel.x.with_ticks(vec![(5.0, "five".to_owned())]);
        let svg = line_chart("T", "D", &[panel], &style);
        assert!(!svg.contains("clip"));
        for line in [
            r#"  <text x="249.0" y="304.0" text-anchor="middle">five</text>"#,
            r##"  <path d="M74.0 288.0 L424.0 34.0" fill="none" stroke="#0072B2" stroke-width="2"/>"##,
            r##"  <circle cx="424.0" cy="34.0" r="3" fill="#0072B2"/>"##,
            r##"  <rect x="82.0" y="42.0" width="236" height="25.0" fill="#ffffff" fill-opacity="0.9" stroke="#cccccc"/>"##,
            r##"  <text x="118.0" y="56.0" fill="#555555">measured</text>"##,
        ] {
            assert!(
                svg.contains(&format!("{line}\n")),
                "{line} missing from\n{svg}"
            );
        }
    }

    #[test]
    fn an_outside_legend_widens_the_panel() {
        let svg = line_chart("T", "D", &[panel(Corner::Outside)], &ChartStyle::default());
        assert!(svg.starts_with(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="550" height="340""#
        ));
        assert!(svg.contains(r##"<rect x="432.0" y="34.0" width="101.6""##));
    }

    #[test]
    fn ticks_are_round_numbers_or_powers_of_ten() {
        let labels = |axis: &Axis| -> Vec<String> {
            ticks(axis).into_iter().map(|(_, label)| label).collect()
        };
        assert_eq!(
            labels(&Axis::linear("", 0.0, 104.0)),
            ["0", "20", "40", "60", "80", "100"]
        );
        assert_eq!(
            labels(&Axis::linear("", -0.5, 1.0)),
            ["-0.5", "0", "0.5", "1"]
        );
        assert_eq!(
            labels(&Axis::log("", 1e-2, 1e3)),
            [
                r#"10<tspan dy="-5" font-size="9">−2</tspan>"#,
                r#"10<tspan dy="-5" font-size="9">−1</tspan>"#,
                "1",
                "10",
                "100",
                "1000"
            ]
        );
        // 23 decades: every fourth power.
        assert_eq!(labels(&Axis::log("", 1e-18, 1e5)).len(), 6);
        assert_eq!(decade_ticks(4, 5)[1], (1e5, power_label(5)));
    }

    #[test]
    fn a_power_of_ten_s_logarithm_is_exact() {
        // The log axes place 10^e at exactly e: decade_ticks and the axes' bounds rely on it.
        for e in -30..=30 {
            assert_eq!((10.0 as Float).powi(e).log10(), e as Float, "10^{e}");
        }
    }

    #[test]
    fn a_chinese_character_is_two_columns_wide() {
        assert_eq!(text_columns("head 0"), 6);
        assert_eq!(text_columns("第 0 个头"), 9);
        assert_eq!(text_columns("虚线：上界"), 10);
    }
}
