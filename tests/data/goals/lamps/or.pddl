(define (problem lamps-or) (:domain lamps)
  (:objects a b - lamp r1 r2 - room)
  (:init (in main r1) (in a r1) (in b r1) (on a))
  (:goal (or (and (on b) (not (on a))) (and (on main) (in main r2)))))
