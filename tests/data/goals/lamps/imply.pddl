(define (problem lamps-imply) (:domain lamps)
  (:objects a b - lamp r1 r2 - room)
  (:init (in main r1) (in a r1) (in b r1) (on a))
  (:goal (and (in a r2) (imply (on main) (forall (?l - lamp) (on ?l))))))
