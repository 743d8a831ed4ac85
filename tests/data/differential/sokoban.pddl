; Hand-made 3x3 problem for the differential test: unified-planning grounds all 5-parameter
; push actions of the benchmark's 5x5 grids (62,500 per problem) and takes minutes on a walk;
; a 3x3 grid with one box has 2,916.
(define (problem sokoban-3x3)
  (:domain typed_sokoban)
  (:objects up down left right - dir box0 - box
            f0_0f f0_1f f0_2f f1_0f f1_1f f1_2f f2_0f f2_1f f2_2f - loc)
  (:init (adjacent f0_0f f0_1f right) (adjacent f0_1f f0_2f right) (adjacent f0_1f f0_0f left) (adjacent f0_2f f0_1f left)
         (adjacent f1_0f f1_1f right) (adjacent f1_1f f1_2f right) (adjacent f1_1f f1_0f left) (adjacent f1_2f f1_1f left)
         (adjacent f2_0f f2_1f right) (adjacent f2_1f f2_2f right) (adjacent f2_1f f2_0f left) (adjacent f2_2f f2_1f left)
         (adjacent f0_0f f1_0f down) (adjacent f1_0f f2_0f down) (adjacent f1_0f f0_0f up) (adjacent f2_0f f1_0f up)
         (adjacent f0_1f f1_1f down) (adjacent f1_1f f2_1f down) (adjacent f1_1f f0_1f up) (adjacent f2_1f f1_1f up)
         (adjacent f0_2f f1_2f down) (adjacent f1_2f f2_2f down) (adjacent f1_2f f0_2f up) (adjacent f2_2f f1_2f up)
         (at_robot f0_0f) (at box0 f1_1f)
         (clear f0_1f) (clear f0_2f) (clear f1_0f) (clear f1_2f) (clear f2_0f) (clear f2_1f) (clear f2_2f))
  (:goal (and (at box0 f2_2f))))
