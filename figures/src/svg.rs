//! SVG as text: a document, its elements, and their attributes in the order given.
//!
//! Every element is one line, indented two spaces per level of nesting. A number is
//! written either as Rust's `Display` writes it (`34`, `113.04347826086956`) or with a
//! fixed number of decimals, [`fixed`] (`34.0`): the caller says which, attribute by
//! attribute, so the text never depends on anything but the values.

use crate::lang::FONT_FAMILY;
use course_common::Float;
use std::fmt::{self, Display};

/// A number written with a fixed number of decimals (see [`fixed`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fixed {
    value: Float,
    decimals: usize,
}

/// `value` written with `decimals` decimals, as `format!("{value:.decimals$}")` does:
/// `fixed(2.0, 1)` is `2.0`, `fixed(7.25, 0)` is `7`.
pub fn fixed(value: Float, decimals: usize) -> Fixed {
    Fixed { value, decimals }
}

impl Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.*}", self.decimals, self.value)
    }
}

/// `text` with `&`, `<` and `>` replaced by their entities, so that it reads as text
/// inside an element.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The points of a `<polyline>`: `x,y` pairs with `decimals` decimals, separated by
/// spaces.
pub fn polyline_points(points: &[(Float, Float)], decimals: usize) -> String {
    let pairs: Vec<String> = points
        .iter()
        .map(|&(x, y)| format!("{},{}", fixed(x, decimals), fixed(y, decimals)))
        .collect();
    pairs.join(" ")
}

/// The `d` of a `<path>` through `points`: `M` to the first, `L` to each next, one
/// decimal.
pub fn path_data(points: &[(Float, Float)]) -> String {
    let steps: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, (x, y))| format!("{}{x:.1} {y:.1}", if i == 0 { "M" } else { "L" }))
        .collect();
    steps.join(" ")
}

/// An SVG document being written, element by element.
///
/// ```
/// use course_figures::svg::{Svg, fixed};
///
/// let mut svg = Svg::new(100, 50, 12);
/// svg.circle(fixed(10.0, 1), 20, 2.5).attr("fill", "#0072B2").end();
/// svg.text(fixed(10.0, 1), 40).attr("text-anchor", "middle").text("a < b");
/// let text = svg.finish();
/// assert!(text.ends_with(
///     r##"  <circle cx="10.0" cy="20" r="2.5" fill="#0072B2"/>
///   <text x="10.0" y="40" text-anchor="middle">a &lt; b</text>
/// </svg>
/// "##
/// ));
/// ```
#[derive(Debug, Clone)]
pub struct Svg {
    text: String,
    depth: usize,
}

impl Svg {
    /// Opens a document `width` by `height` pixels (its `viewBox` too), in the course's
    /// font and ink, with text `font_size` pixels high unless an element says otherwise.
    pub fn new(width: impl Display, height: impl Display, font_size: u32) -> Self {
        let text = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONT_FAMILY}" font-size="{font_size}" fill="#1a1a1a">
"##
        );
        Self { text, depth: 1 }
    }

    /// The document's `<title>` and `<desc>`, which screen readers read out.
    pub fn title(&mut self, title: &str, description: &str) {
        self.tag("title").text(title);
        self.tag("desc").text(description);
    }

    /// A white rectangle under the whole document, `width` by `height`.
    pub fn background(&mut self, width: impl Display, height: impl Display) {
        self.rect(0, 0, width, height).attr("fill", "#ffffff").end();
    }

    /// Starts an element `name` (see also the shorthands [`Svg::text`], [`Svg::line`],
    /// [`Svg::rect`] and [`Svg::circle`]): add its attributes, then end it with
    /// [`Element::end`], [`Element::text`], [`Element::markup`] or [`Element::open`].
    pub fn tag(&mut self, name: &'static str) -> Element<'_> {
        let line = format!("<{name}");
        Element {
            svg: self,
            name,
            line,
        }
    }

    /// Closes the innermost element opened with [`Element::open`], named `name`.
    pub fn close(&mut self, name: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.raw(&format!("</{name}>"));
    }

    /// A `<text>` at `(x, y)`: add its other attributes, then its content.
    pub fn text(&mut self, x: impl Display, y: impl Display) -> Element<'_> {
        self.tag("text").attr("x", x).attr("y", y)
    }

    /// A `<line>` from `(x1, y1)` to `(x2, y2)`.
    pub fn line(
        &mut self,
        x1: impl Display,
        y1: impl Display,
        x2: impl Display,
        y2: impl Display,
    ) -> Element<'_> {
        self.tag("line")
            .attr("x1", x1)
            .attr("y1", y1)
            .attr("x2", x2)
            .attr("y2", y2)
    }

    /// A `<rect>` `width` by `height` with its top left corner at `(x, y)`.
    pub fn rect(
        &mut self,
        x: impl Display,
        y: impl Display,
        width: impl Display,
        height: impl Display,
    ) -> Element<'_> {
        self.tag("rect")
            .attr("x", x)
            .attr("y", y)
            .attr("width", width)
            .attr("height", height)
    }

    /// A `<circle>` of radius `r` around `(cx, cy)`.
    pub fn circle(
        &mut self,
        cx: impl Display,
        cy: impl Display,
        r: impl Display,
    ) -> Element<'_> {
        self.tag("circle")
            .attr("cx", cx)
            .attr("cy", cy)
            .attr("r", r)
    }

    /// One line of SVG written as it is, at the current depth.
    pub fn raw(&mut self, line: &str) {
        for _ in 0..self.depth {
            self.text.push_str("  ");
        }
        self.text.push_str(line);
        self.text.push('\n');
    }

    /// Closes the document and returns its text.
    pub fn finish(mut self) -> String {
        self.text.push_str("</svg>\n");
        self.text
    }
}

/// An element being written, its attributes in the order they are added.
#[derive(Debug)]
pub struct Element<'a> {
    svg: &'a mut Svg,
    name: &'static str,
    line: String,
}

impl Element<'_> {
    /// Adds `name="value"`. The value is written as it is: pass a number through
    /// [`fixed`] for a fixed number of decimals.
    pub fn attr(mut self, name: &str, value: impl Display) -> Self {
        self.line.push_str(&format!(" {name}=\"{value}\""));
        self
    }

    /// Adds `name="value"` if there is a value.
    pub fn attr_opt(self, name: &str, value: Option<impl Display>) -> Self {
        match value {
            Some(value) => self.attr(name, value),
            None => self,
        }
    }

    /// Ends an element without content: `<name .../>`.
    pub fn end(mut self) {
        self.line.push_str("/>");
        self.svg.raw(&self.line);
    }

    /// Ends an element whose content is `content`, as text (see [`escape`]).
    pub fn text(self, content: impl Display) {
        let content = escape(&content.to_string());
        self.markup(&content);
    }

    /// Ends an element whose content is SVG written as it is, such as a `<tspan>`.
    pub fn markup(mut self, content: &str) {
        self.line
            .push_str(&format!(">{content}</{name}>", name = self.name));
        self.svg.raw(&self.line);
    }

    /// Writes the start tag alone, `<name ...>`: the elements that follow are inside
    /// it until [`Svg::close`].
    pub fn open(mut self) {
        self.line.push('>');
        self.svg.raw(&self.line);
        self.svg.depth += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_has_its_header_and_elements_one_per_line() {
        let mut svg = Svg::new(fixed(120.4, 0), 80, 14);
        svg.title("A & B", "<desc>");
        svg.background(120, 80);
        svg.tag("g").attr("fill", "none").open();
        svg.tag("line")
            .attr("x1", fixed(1.0, 1))
            .attr("y1", 2.5)
            .attr_opt("stroke-dasharray", Some("6 4"))
            .attr_opt("stroke", None::<&str>)
            .end();
        svg.close("g");
        svg.tag("text")
            .attr("x", 3)
            .markup(r#"10<tspan dy="-5">2</tspan>"#);
        let expected = r##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 120 80" font-family="Helvetica, Arial, sans-serif" font-size="14" fill="#1a1a1a">
  <title>A &amp; B</title>
  <desc>&lt;desc&gt;</desc>
  <rect x="0" y="0" width="120" height="80" fill="#ffffff"/>
  <g fill="none">
    <line x1="1.0" y1="2.5" stroke-dasharray="6 4"/>
  </g>
  <text x="3">10<tspan dy="-5">2</tspan></text>
</svg>
"##;
        assert_eq!(svg.finish(), expected);
    }

    #[test]
    fn numbers_are_written_as_asked() {
        assert_eq!(fixed(2.0, 1).to_string(), "2.0");
        assert_eq!(fixed(2.25, 0).to_string(), "2");
        assert_eq!(fixed(-0.04, 1).to_string(), "-0.0");
        assert_eq!(
            polyline_points(&[(1.0, 2.04), (3.25, 4.0)], 1),
            "1.0,2.0 3.2,4.0"
        );
        assert_eq!(path_data(&[(1.0, 2.0), (3.0, 4.56)]), "M1.0 2.0 L3.0 4.6");
        assert_eq!(path_data(&[]), "");
    }
}
