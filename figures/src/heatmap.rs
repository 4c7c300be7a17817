//! Heatmaps: a matrix drawn as a grid of coloured cells, with labels along two sides,
//! and colour scales to read them by.
//!
//! ```
//! use course_common::ndarray::array;
//! use course_figures::colour::BLUES;
//! use course_figures::heatmap::{Heatmap, LabelOrder};
//! use course_figures::svg::Svg;
//!
//! let weights = array![[0.9, 0.1], [0.3, 0.7]];
//! let heatmap = Heatmap::new(&weights, BLUES, 40.0, 30.0, 20.0);
//! let mut svg = Svg::new(100, 80, 12);
//! heatmap.draw(&mut svg, &["a", "b"], &["a", "b"], LabelOrder::WithRows);
//! let text = svg.finish();
//! assert!(text.contains(r##"<rect x="60.0" y="30.0" width="20" height="20" fill="#dfe7f0"/>"##));
//! ```

use crate::colour::ColourMap;
use crate::svg::{Svg, fixed};
use course_common::{Float, Matrix};

/// A matrix as a grid of cells, row `i` column `j` at
/// `(left + cell_width · j, top + cell_height · i)`, coloured by a [`ColourMap`].
/// Its public fields are the choices that differ between figures; [`Heatmap::new`]
/// makes the plainest one.
#[derive(Debug, Clone)]
pub struct Heatmap<'a> {
    /// The values, one cell each.
    pub values: &'a Matrix,
    /// Their colours.
    pub colours: ColourMap,
    /// The left edge of the grid.
    pub left: Float,
    /// The top edge of the grid.
    pub top: Float,
    /// The width of a cell.
    pub cell_width: Float,
    /// The height of a cell.
    pub cell_height: Float,
    /// The decimals of the cells' positions (0 for a grid on whole pixels).
    pub decimals: usize,
    /// Cells drawn without anti-aliasing (in a `shape-rendering="crispEdges"` group),
    /// so that neighbouring cells meet without a hairline.
    pub crisp: bool,
    /// The colour and width of a line around each cell, to part neighbours.
    pub outline: Option<(&'static str, Float)>,
    /// Each value written in its cell.
    pub numbers: Option<CellNumbers>,
    /// How the labels look.
    pub labels: Labels,
}

/// Values written in their cells, centred, in dark ink on light cells and white on
/// dark ones.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellNumbers {
    /// The text's size.
    pub font_size: Float,
    /// The number of decimals.
    pub decimals: usize,
    /// Values above this are written in white.
    pub white_above: Float,
}

/// The labels of the columns (above them) and of the rows (left of them, right-aligned).
#[derive(Debug, Clone, PartialEq)]
pub struct Labels {
    /// The gap between the grid and the column labels' baseline.
    pub column_gap: Float,
    /// The gap between the grid and the row labels' right end.
    pub row_gap: Float,
    /// Where a row label's baseline is, as a fraction of the cell height below the
    /// row's top edge, plus this many pixels.
    pub baseline: (Float, Float),
    /// The labels' other attributes (font size, family, colour), in this order.
    pub attributes: Vec<(&'static str, &'static str)>,
}

/// In which order [`Heatmap::draw`] writes the labels and the cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelOrder {
    /// The label of column 0, the label of row 0, those of column 1 and row 1, and so
    /// on; then the cells, row by row.
    Paired,
    /// The column labels; then for each row its label and its cells.
    WithRows,
}

impl<'a> Heatmap<'a> {
    /// Square cells `cell` wide, the grid's top left corner at `(left, top)`; positions
    /// with one decimal, no outline, no numbers, labels 6 pixels from the grid, a row
    /// label's baseline 0.7 of the way down its row.
    pub fn new(
        values: &'a Matrix,
        colours: ColourMap,
        left: Float,
        top: Float,
        cell: Float,
    ) -> Self {
        Self {
            values,
            colours,
            left,
            top,
            cell_width: cell,
            cell_height: cell,
            decimals: 1,
            crisp: false,
            outline: None,
            numbers: None,
            labels: Labels {
                column_gap: 6.0,
                row_gap: 6.0,
                baseline: (0.7, 0.0),
                attributes: Vec::new(),
            },
        }
    }

    /// The whole heatmap: labels (fewer than the rows or columns leave the rest without)
    /// and cells, in the `order` given.
    pub fn draw<C: AsRef<str>, R: AsRef<str>>(
        &self,
        svg: &mut Svg,
        columns: &[C],
        rows: &[R],
        order: LabelOrder,
    ) {
        if self.crisp {
            svg.tag("g").attr("shape-rendering", "crispEdges").open();
        }
        match order {
            LabelOrder::Paired => {
                for k in 0..columns.len().max(rows.len()) {
                    if let Some(label) = columns.get(k) {
                        self.column_label(svg, k, label.as_ref());
                    }
                    if let Some(label) = rows.get(k) {
                        self.row_label(svg, k, label.as_ref());
                    }
                }
                for i in 0..self.values.nrows() {
                    self.row(svg, i);
                }
            }
            LabelOrder::WithRows => {
                for (j, label) in columns.iter().enumerate() {
                    self.column_label(svg, j, label.as_ref());
                }
                for i in 0..self.values.nrows() {
                    if let Some(label) = rows.get(i) {
                        self.row_label(svg, i, label.as_ref());
                    }
                    self.row(svg, i);
                }
            }
        }
        if self.crisp {
            svg.close("g");
        }
    }

    /// The cells alone, row by row, without labels.
    pub fn cells(&self, svg: &mut Svg) {
        self.draw::<&str, &str>(svg, &[], &[], LabelOrder::WithRows);
    }

    /// The label of column `j`, centred above it.
    pub fn column_label(&self, svg: &mut Svg, j: usize, text: &str) {
        let x = self.left + self.cell_width * (j as Float + 0.5);
        self.label(svg, x, self.top - self.labels.column_gap, "middle", text);
    }

    /// The label of row `i`, right-aligned left of it.
    pub fn row_label(&self, svg: &mut Svg, i: usize, text: &str) {
        let (fraction, shift) = self.labels.baseline;
        let y = self.top
            + self.cell_height * i as Float
            + self.cell_height * fraction
            + shift;
        self.label(svg, self.left - self.labels.row_gap, y, "end", text);
    }

    fn label(&self, svg: &mut Svg, x: Float, y: Float, anchor: &str, text: &str) {
        let mut element = svg
            .text(fixed(x, 1), fixed(y, 1))
            .attr("text-anchor", anchor);
        for (name, value) in &self.labels.attributes {
            element = element.attr(name, value);
        }
        element.text(text);
    }

    /// The cells of row `i`, left to right.
    pub fn row(&self, svg: &mut Svg, i: usize) {
        for j in 0..self.values.ncols() {
            self.cell(svg, i, j);
        }
    }

    /// The cell of row `i`, column `j`, and its number if the heatmap writes them.
    pub fn cell(&self, svg: &mut Svg, i: usize, j: usize) {
        let value = self.values[[i, j]];
        let (x, y) = (
            self.left + self.cell_width * j as Float,
            self.top + self.cell_height * i as Float,
        );
        svg.rect(
            fixed(x, self.decimals),
            fixed(y, self.decimals),
            self.cell_width,
            self.cell_height,
        )
        .attr("fill", self.colours.colour(value))
        .attr_opt("stroke", self.outline.map(|(colour, _)| colour))
        .attr_opt("stroke-width", self.outline.map(|(_, width)| width))
        .end();
        if let Some(numbers) = self.numbers {
            let ink = if value > numbers.white_above {
                "#ffffff"
            } else {
                "#1a1a1a"
            };
            svg.text(
                fixed(x + self.cell_width / 2.0, 1),
                fixed(y + self.cell_height / 2.0 + 4.0, 1),
            )
            .attr("text-anchor", "middle")
            .attr("font-size", numbers.font_size)
            .attr("fill", ink)
            .text(fixed(value, numbers.decimals));
        }
    }
}

/// A colour scale from 0 to 1 in `steps + 1` swatches left to right, each `width` by
/// `height`, the first at `(x, y)`: swatch `k` shows `k / steps`. An outline, if given,
/// is its colour and width.
#[allow(clippy::too_many_arguments)]
pub fn colour_steps(
    svg: &mut Svg,
    colours: ColourMap,
    x: Float,
    y: Float,
    width: Float,
    height: Float,
    steps: usize,
    outline: Option<(&str, Float)>,
) {
    for k in 0..=steps {
        svg.rect(fixed(x + width * k as Float, 1), fixed(y, 1), width, height)
            .attr("fill", colours.colour(k as Float / steps as Float))
            .attr_opt("stroke", outline.map(|(colour, _)| colour))
            .attr_opt("stroke-width", outline.map(|(_, width)| width))
            .end();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::colour::{BLUES, RED_BLUE};
    use course_common::ndarray::array;

    fn body(svg: Svg) -> String {
        let text = svg.finish();
        let start = text.find('\n').expect("a header line") + 1;
        text[start..].trim_end_matches("</svg>\n").to_owned()
    }

    #[test]
    fn paired_labels_then_cells_with_their_numbers() {
        let values = array![[0.25, 0.75], [1.0, 0.0]];
        let mut heatmap = Heatmap::new(&values, BLUES, 50.0, 40.0, 30.0);
        heatmap.outline = Some(("#ffffff", 1.5));
        heatmap.numbers = Some(CellNumbers {
            font_size: 11.0,
            decimals: 2,
            white_above: 0.45,
        });
        heatmap.labels = Labels {
            column_gap: 8.0,
            row_gap: 6.0,
            baseline: (0.5, 4.0),
            attributes: vec![("font-size", "12"), ("fill", "#444")],
        };
        let mut svg = Svg::new(1, 1, 14);
        heatmap.draw(&mut svg, &["a", "b"], &["c", "d"], LabelOrder::Paired);
        let expected = r##"  <text x="65.0" y="32.0" text-anchor="middle" font-size="12" fill="#444">a</text>
  <text x="44.0" y="59.0" text-anchor="end" font-size="12" fill="#444">c</text>
  <text x="95.0" y="32.0" text-anchor="middle" font-size="12" fill="#444">b</text>
  <text x="44.0" y="89.0" text-anchor="end" font-size="12" fill="#444">d</text>
  <rect x="50.0" y="40.0" width="30" height="30" fill="#bbc8da" stroke="#ffffff" stroke-width="1.5"/>
  <text x="65.0" y="59.0" text-anchor="middle" font-size="11" fill="#1a1a1a">0.25</text>
  <rect x="80.0" y="40.0" width="30" height="30" fill="#446390" stroke="#ffffff" stroke-width="1.5"/>
  <text x="95.0" y="59.0" text-anchor="middle" font-size="11" fill="#ffffff">0.75</text>
  <rect x="50.0" y="70.0" width="30" height="30" fill="#08306b" stroke="#ffffff" stroke-width="1.5"/>
  <text x="65.0" y="89.0" text-anchor="middle" font-size="11" fill="#ffffff">1.00</text>
  <rect x="80.0" y="70.0" width="30" height="30" fill="#f7fbff" stroke="#ffffff" stroke-width="1.5"/>
  <text x="95.0" y="89.0" text-anchor="middle" font-size="11" fill="#1a1a1a">0.00</text>
"##;
        assert_eq!(body(svg), expected);
    }

    #[test]
    fn row_labels_before_their_rows_and_a_crisp_grid() {
        let values = array![[-1.0, 1.0]];
        let mut heatmap = Heatmap::new(&values, RED_BLUE, 10.0, 20.0, 10.0);
        heatmap.decimals = 0;
        heatmap.crisp = true;
        let mut svg = Svg::new(1, 1, 14);
        heatmap.draw(&mut svg, &["<", "b"], &["r"], LabelOrder::WithRows);
        let expected = r##"  <g shape-rendering="crispEdges">
    <text x="15.0" y="14.0" text-anchor="middle">&lt;</text>
    <text x="25.0" y="14.0" text-anchor="middle">b</text>
    <text x="4.0" y="27.0" text-anchor="end">r</text>
    <rect x="10" y="20" width="10" height="10" fill="#2166ac"/>
    <rect x="20" y="20" width="10" height="10" fill="#b2182b"/>
  </g>
"##;
        assert_eq!(body(svg), expected);
    }

    #[test]
    fn a_colour_scale_in_eleven_steps() {
        let mut svg = Svg::new(1, 1, 14);
        colour_steps(
            &mut svg,
            BLUES,
            5.0,
            7.0,
            20.0,
            14.0,
            10,
            Some(("#ccc", 0.5)),
        );
        let text = body(svg);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(
            lines[0],
            r##"  <rect x="5.0" y="7.0" width="20" height="14" fill="#f7fbff" stroke="#ccc" stroke-width="0.5"/>"##
        );
        assert_eq!(
            lines[10],
            r##"  <rect x="205.0" y="7.0" width="20" height="14" fill="#08306b" stroke="#ccc" stroke-width="0.5"/>"##
        );
    }
}
