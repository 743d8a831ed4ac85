(define (problem lamps-nested) (:domain lamps)
  (:objects a b - lamp r1 r2 - room)
  (:init (in main r1) (in a r1) (in b r1) (on a))
  (:goal (and (forall (?r - room) (exists (?l - lamp) (and (in ?l ?r) (not (on ?l))))) (not (on main)) (bright r2))))
