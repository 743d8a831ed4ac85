; a step of cost 0 but no zero-cost loop (links one way, the lamp switched on once: no dimmer): finitely many plans
(define (problem acyclic) (:domain zero-cost)
 (:objects c0 c1 c2 c3 - cell)
 (:init (at c0) (link c0 c1) (link c1 c3) (link c0 c2) (link c2 c3) (link c0 c3)
        (= (dist c0 c1) 1) (= (dist c1 c3) 2) (= (dist c0 c2) 0) (= (dist c2 c3) 3) (= (dist c0 c3) 5)
        (= (total-cost) 0))
 (:goal (and (at c3) (lamp)))
 (:metric minimize (total-cost)))
