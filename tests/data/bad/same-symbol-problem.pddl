; A correct problem for domain.pddl.
(define (problem two)
  (:domain blocks)
  (:objects a b b-2 b_2 - block)
  (:init (ontable a) (ontable b)
         (clear a) (clear b)
         (handempty))
  (:goal (and (on a b))))
