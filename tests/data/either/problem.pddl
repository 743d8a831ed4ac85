(define (problem either-1) (:domain either-logistics)
 (:objects t1 - truck p1 - plane a b - city x - parcel tp - (either truck plane))
 (:init (at t1 a) (at p1 a) (at hub b) (at tp a) (at x a) (open b) (open depot))
 (:goal (and (in x p1))))
