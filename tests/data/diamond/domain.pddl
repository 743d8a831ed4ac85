; A diamond of types: amphibian is a vehicle and a cargo, both things (multiple inheritance, as
; IPC 2006's storage declares `area` twice; Fast Downward reads such a type as a subtype of each).
(define (domain diamond)
  (:requirements :strips :typing :negative-preconditions)
  (:types thing place - object
          vehicle cargo - thing
          amphibian - vehicle
          amphibian - cargo)
  (:predicates (at ?x - thing ?l - place) (in ?c - cargo ?v - vehicle) (floats ?a - amphibian))
  (:action drive
     :parameters (?v - vehicle ?from ?to - place)
     :precondition (and (at ?v ?from) (not (at ?v ?to)))
     :effect (and (not (at ?v ?from)) (at ?v ?to)))
  (:action load
     :parameters (?c - cargo ?v - vehicle ?l - place)
     :precondition (and (at ?c ?l) (at ?v ?l) (not (in ?c ?v)))
     :effect (and (in ?c ?v) (not (at ?c ?l))))
  (:action launch
     :parameters (?a - amphibian ?l - place)
     :precondition (at ?a ?l)
     :effect (floats ?a)))
