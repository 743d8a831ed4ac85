; The diamond domain written by hand with its types as predicates (unified-planning refuses a type
; declared twice): the oracle for what applies.
(define (domain diamond-untyped)
  (:requirements :strips :negative-preconditions)
  (:predicates (at ?x ?l) (in ?c ?v) (floats ?a)
               (thing ?x) (place ?x) (vehicle ?x) (cargo ?x) (amphibian ?x))
  (:action drive
     :parameters (?v ?from ?to)
     :precondition (and (vehicle ?v) (place ?from) (place ?to) (at ?v ?from) (not (at ?v ?to)))
     :effect (and (not (at ?v ?from)) (at ?v ?to)))
  (:action load
     :parameters (?c ?v ?l)
     :precondition (and (cargo ?c) (vehicle ?v) (place ?l) (at ?c ?l) (at ?v ?l) (not (in ?c ?v)))
     :effect (and (in ?c ?v) (not (at ?c ?l))))
  (:action launch
     :parameters (?a ?l)
     :precondition (and (amphibian ?a) (place ?l) (at ?a ?l))
     :effect (floats ?a)))
