; A small transport problem in the style of IPC 2011 transport (opt): two trucks, three locations, one package.
(define (problem transport-small-2)
 (:domain transport)
 (:objects
  a b c - location
  truck-1 truck-2 - vehicle
  package-1 - package
  capacity-0 capacity-1 - capacity-number
 )
 (:init
  (= (total-cost) 0)
  (capacity-predecessor capacity-0 capacity-1)
  (road a b) (= (road-length a b) 2)
  (road b a) (= (road-length b a) 2)
  (road b c) (= (road-length b c) 2)
  (road c b) (= (road-length c b) 2)
  (road a c) (= (road-length a c) 3)
  (road c a) (= (road-length c a) 3)
  (at package-1 a)
  (at truck-1 c)
  (at truck-2 b)
  (capacity truck-1 capacity-1)
  (capacity truck-2 capacity-1)
 )
 (:goal (and (at package-1 c)))
 (:metric minimize (total-cost))
)
