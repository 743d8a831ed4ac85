(define (problem lamps-objects-in-quantifier) (:domain lamps)
  (:objects a b - lamp r1 r2 - room)
  (:init (in main r1) (in a r1) (in b r1) (on a))
  (:goal (forall (?l - lamp ?r - room) (imply (in ?l ?r) (or (on ?l) (= ?r r2))))))
