; Four blocks named a b c d, as in PlanBench: "a" is also an English article.
(define (problem bw-abcd)
  (:domain blocksworld)
  (:objects a b c d - block)
  (:init (handempty) (on c a) (ontable a) (ontable b) (ontable d) (clear c) (clear b) (clear d))
  (:goal (and (on a b) (on b d))))
