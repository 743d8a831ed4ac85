; A reduction of IPC 2011 elevators (opt) instance 1: floors n0-n4, two slow elevators, two passengers.
(define (problem elevators-small-2)
(:domain elevators-sequencedstrips)
(:objects
n0 n1 n2 n3 n4 - count
p0 p1 - passenger
slow0-0 slow1-0 - slow-elevator
)
(:init
(next n0 n1) (next n1 n2) (next n2 n3) (next n3 n4)
(above n0 n1) (above n0 n2) (above n0 n3) (above n0 n4)
(above n1 n2) (above n1 n3) (above n1 n4)
(above n2 n3) (above n2 n4)
(above n3 n4)
(lift-at slow0-0 n0) (passengers slow0-0 n0) (can-hold slow0-0 n1) (can-hold slow0-0 n2)
(reachable-floor slow0-0 n0) (reachable-floor slow0-0 n1) (reachable-floor slow0-0 n2)
(lift-at slow1-0 n4) (passengers slow1-0 n0) (can-hold slow1-0 n1)
(reachable-floor slow1-0 n2) (reachable-floor slow1-0 n3) (reachable-floor slow1-0 n4)
(passenger-at p0 n0)
(passenger-at p1 n3)
(= (total-cost) 0)
(= (travel-slow n0 n1) 6) (= (travel-slow n0 n2) 7) (= (travel-slow n1 n2) 6)
(= (travel-slow n2 n3) 6) (= (travel-slow n2 n4) 7) (= (travel-slow n3 n4) 6)
(= (travel-slow n0 n3) 8) (= (travel-slow n0 n4) 9) (= (travel-slow n1 n3) 7) (= (travel-slow n1 n4) 8)
(= (travel-fast n0 n2) 7) (= (travel-fast n0 n4) 9) (= (travel-fast n2 n4) 7)
)
(:goal (and (passenger-at p0 n3) (passenger-at p1 n1)))
(:metric minimize (total-cost))
)
