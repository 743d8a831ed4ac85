; A problem as a language model might write examples/blocksworld/problem.pddl from its description:
; other object names, facts in another order, and the goal "fully specified" with (clear c), which
; the reference leaves implicit (MIT, LICENSE beside).
(define (problem three_blocks)
  (:domain blocksworld)
  (:objects c a b - block)
  (:init (clear c) (on c a) (on a b) (ontable b) (handempty))
  (:goal (and (on c b) (on b a) (clear c))))
