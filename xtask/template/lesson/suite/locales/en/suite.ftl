# The graded tests of lesson {{padded}} ({{title}}): what a failed test says.

scale-doubled = scale(x, 2) of a 2 × 2 matrix: every entry doubled
