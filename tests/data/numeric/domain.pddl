; A small numeric domain written for amlasp's tests: trucks with fuel on a road map.
(define (domain fueltrucks)
  (:requirements :strips :typing :conditional-effects :numeric-fluents)
  (:types truck place - object)
  (:predicates (at ?t - truck ?p - place) (road ?from ?to - place))
  (:functions (fuel ?t - truck) - number
              (distance ?from ?to - place) - number
              (driven))
  (:action drive
    :parameters (?t - truck ?from ?to - place)
    :precondition (and (at ?t ?from) (road ?from ?to)
                       (>= (fuel ?t) (* 2 (distance ?from ?to))))
    :effect (and (not (at ?t ?from)) (at ?t ?to)
                 (decrease (fuel ?t) (* 2 (distance ?from ?to)))
                 (increase (driven) 1)))
  (:action refuel
    :parameters (?t - truck ?p - place)
    :precondition (and (at ?t ?p) (< (fuel ?t) 10))
    :effect (and (assign (fuel ?t) 20)
                 (forall (?u - truck) (when (and (at ?u ?p) (<= (fuel ?u) 1.50)) (scale-up (fuel ?u) 2))))))
