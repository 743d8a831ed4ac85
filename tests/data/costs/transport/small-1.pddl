; A small transport problem in the style of IPC 2011 transport (opt): four locations, a long road and
; a detour, one truck, two packages.
(define (problem transport-small-1)
 (:domain transport)
 (:objects
  l1 l2 l3 l4 - location
  truck-1 - vehicle
  package-1 package-2 - package
  capacity-0 capacity-1 capacity-2 - capacity-number
 )
 (:init
  (= (total-cost) 0)
  (capacity-predecessor capacity-0 capacity-1)
  (capacity-predecessor capacity-1 capacity-2)
  (road l1 l2) (= (road-length l1 l2) 1)
  (road l2 l1) (= (road-length l2 l1) 1)
  (road l2 l3) (= (road-length l2 l3) 1)
  (road l3 l2) (= (road-length l3 l2) 1)
  (road l1 l3) (= (road-length l1 l3) 3)
  (road l3 l1) (= (road-length l3 l1) 3)
  (road l3 l4) (= (road-length l3 l4) 2)
  (road l4 l3) (= (road-length l4 l3) 2)
  (at package-1 l2)
  (at package-2 l4)
  (at truck-1 l1)
  (capacity truck-1 capacity-1)
 )
 (:goal (and
  (at package-1 l4)
  (at package-2 l1)
 ))
 (:metric minimize (total-cost))
)
