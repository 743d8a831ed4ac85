(define (problem lamps-forall-derived) (:domain lamps)
  (:objects a b - lamp r1 r2 - room)
  (:init (in main r1) (in a r1) (in b r1) (on a))
  (:goal (forall (?r - room) (bright ?r))))
