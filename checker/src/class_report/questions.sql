-- Questions the class history answers that the report does not. The book shows them
-- (`{{#include}}` with the anchors below); a test of history.rs runs each one on a
-- history it records, so that they stay valid as the schema grows.

-- ANCHOR: held_out_only
-- Who passes every graded test of a lesson but fails one of its held-out tests, in the
-- latest finished run: code that satisfies the tests the learner could see, and not the
-- property they stand for.
SELECT student, lesson, count(*) AS held_out_failures
FROM tests
WHERE run = (SELECT max(id) FROM runs WHERE finished_at IS NOT NULL)
GROUP BY student, lesson
HAVING sum(tier = 'graded' AND passed = 0) = 0
   AND sum(tier = 'held_out' AND passed = 0) > 0
ORDER BY lesson, student;
-- ANCHOR_END: held_out_only

-- ANCHOR: persistent
-- Which students have made the same named mistake in each of the last three finished runs:
-- a misconception that feedback alone has not moved, worth a conversation.
WITH recent AS (
    SELECT id FROM runs WHERE finished_at IS NOT NULL ORDER BY id DESC LIMIT 3
)
SELECT student, cause
FROM named
WHERE run IN (SELECT id FROM recent)
GROUP BY student, cause
HAVING count(DISTINCT run) = (SELECT count(*) FROM recent)
ORDER BY cause, student;
-- ANCHOR_END: persistent
