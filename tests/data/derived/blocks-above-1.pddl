(define (problem above-1) (:domain bw-derived)
 (:objects a b c d - block)
 (:init (on a b) (on b c) (ontable c) (clear a) (ontable d) (clear d) (handempty))
 (:goal (and (above c a) (not (above a c)) (above d b))))
