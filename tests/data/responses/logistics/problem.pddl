; One package from a location of city 1 to a location of city 2: truck, airplane, truck.
(define (problem log-two-cities)
  (:domain logistics)
  (:objects pkg1 - package tru1 tru2 - truck apn1 - airplane apt1 apt2 - airport pos1 pos2 - location
            cit1 cit2 - city)
  (:init (at pkg1 pos1) (at tru1 pos1) (at tru2 apt2) (at apn1 apt1)
         (in-city pos1 cit1) (in-city apt1 cit1) (in-city pos2 cit2) (in-city apt2 cit2))
  (:goal (at pkg1 pos2)))
