### Simplified Chinese (zh-CN) text of lesson {{id}}'s title and hints, whose English
### is in lesson.toml beside this file. `cargo xtask stubs` gathers every lesson's file
### into the checker's checker/locales/zh-CN/course.ftl.
###
### Message ids:
###   lesson-{{id}}-title
###   hint-{{id}}-<function, every :: written as -->-<the hint step's name>
### Each message carries the stamp of the English it translates (`# en:`); see CONTRIBUTING.md.

# en: {{stamp}}
lesson-{{id}}-title = {{title_zh}}

# en: {{stamp}}
hint-{{id}}-scale-idea =
    `scale` 把 `x` 的每个元素都乘以 `factor`：结果的形状与 `x` 相同，为 (n, d)。
# en: {{stamp}}
hint-{{id}}-scale-code =
    `x * factor`（ndarray 的矩阵乘以一个数，会把每个元素都乘以它）。
