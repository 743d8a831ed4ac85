; zero-cost loops (c0 <-> c2, the lamp): infinitely many plans of the least cost 3
(define (problem loops) (:domain zero-cost)
 (:objects c0 c1 c2 c3 - cell)
 (:init (at c0) (link c0 c1) (link c1 c3) (link c0 c2) (link c2 c0) (link c2 c3) (dimmer c0)
        (= (dist c0 c1) 1) (= (dist c1 c3) 2) (= (dist c0 c2) 0) (= (dist c2 c0) 0) (= (dist c2 c3) 3)
        (= (total-cost) 0))
 (:goal (at c3))
 (:metric minimize (total-cost)))
