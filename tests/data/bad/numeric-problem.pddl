; A correct problem for domain.pddl.
(define (problem two)
  (:domain blocks)
  (:objects a b - block)
  (:init (ontable a) (ontable b)
         (clear a) (clear b)
         (handempty)
         (= (moves) 0))
  (:goal (and (on a b))))
