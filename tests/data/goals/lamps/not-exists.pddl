(define (problem lamps-not-exists) (:domain lamps)
  (:objects a b - lamp r1 r2 - room)
  (:init (in main r1) (in a r1) (in b r1) (on a))
  (:goal (and (in b r2) (not (exists (?l - lamp) (on ?l))))))
