; Hand-made small problem for the differential test (the benchmark set has none for zenotravel).
(define (problem zeno-small)
  (:domain zeno_travel)
  (:objects plane1 plane2 - aircraft p1 p2 p3 - person c1 c2 c3 - city fl0 fl1 fl2 - flevel)
  (:init (at plane1 c1) (at plane2 c3) (fuel_level plane1 fl1) (fuel_level plane2 fl2)
         (at p1 c1) (at p2 c2) (at p3 c3)
         (next fl0 fl1) (next fl1 fl2))
  (:goal (and (at p1 c2) (at p2 c3) (at plane1 c1))))
