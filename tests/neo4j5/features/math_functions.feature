#encoding: utf-8
# Numeric functions, with round(value), round(value, precision) and round(value, precision, mode).
# As documented: round(x) rounds ties towards positive infinity, and so does round(x, 0) (to align
# with round(x)); with a precision above 0 the default mode is HALF_UP (ties away from zero); the
# modes are UP, DOWN, CEILING, FLOOR, HALF_UP, HALF_DOWN and HALF_EVEN; a tie is judged on the
# decimal value written (2.345 with precision 2 is a tie); the result is a FLOAT.
# Java's UNNECESSARY mode is not among the documented modes, so no case uses it.

Feature: Math functions

  @round
  Scenario Outline: <expr> is <r>
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then the result should be, in any order:
      | r   |
      | <r> |
    And no side effects

    Examples:
      | expr                            | r      |
      | round(3.5)                      | 4.0    |
      | round(-3.5)                     | -3.0   |
      | round(-3.6)                     | -4.0   |
      | round(7)                        | 7.0    |
      | round(null)                     | null   |
      | round(2.345, 2)                 | 2.35   |
      | round(-2.345, 2)                | -2.35  |
      | round(-3.5, 0)                  | -3.0   |
      | round(2.5, 0)                   | 3.0    |
      | round(8.04999, 1)               | 8.0    |
      | round(6.66666, 3)               | 6.667  |
      | round(0.125, 2, 'HALF_EVEN')    | 0.12   |
      | round(0.135, 2, 'HALF_EVEN')    | 0.14   |
      | round(0.125, 2, 'HALF_DOWN')    | 0.12   |
      | round(0.125, 2, 'HALF_UP')      | 0.13   |
      | round(-0.125, 2, 'HALF_UP')     | -0.13  |
      | round(4.01, 1, 'UP')            | 4.1    |
      | round(-4.01, 1, 'UP')           | -4.1   |
      | round(4.09, 1, 'DOWN')          | 4.0    |
      | round(-4.09, 1, 'DOWN')         | -4.0   |
      | round(-4.01, 1, 'CEILING')      | -4.0   |
      | round(4.01, 1, 'CEILING')       | 4.1    |
      | round(-4.01, 1, 'FLOOR')        | -4.1   |
      | round(5.5, 0, 'HALF_EVEN')      | 6.0    |
      | round(6.5, 0, 'HALF_EVEN')      | 6.0    |
      | round(null, 2, 'UP')            | null   |

  @round
  Scenario: round() with an unknown mode is an error
    Given any graph
    When executing query:
      """
      WITH 'SIDEWAYS' AS mode
      RETURN round(1.25, 1, mode) AS r
      """
    Then a ArgumentError should be raised at runtime: *

  @math-functions
  Scenario Outline: <expr> is <r>
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then the result should be, in any order:
      | r   |
      | <r> |
    And no side effects

    Examples:
      | expr                    | r                 |
      | abs(-12)                | 12                |
      | abs(-0.75)              | 0.75              |
      | ceil(2.01)              | 3.0               |
      | floor(-2.01)            | -3.0              |
      | sign(-40)               | -1                |
      | sign(0.0)               | 0                 |
      | sign(0.3)               | 1                 |
      | isNaN(0.0 / 0.0)        | true              |
      | isNaN(12)               | false             |
      | sqrt(81)                | 9.0               |
      | exp(0)                  | 1.0               |
      | log10(10000)            | 4.0               |
      | log(1)                  | 0.0               |
      | pi()                    | 3.141592653589793 |
      | e() > 2.71 AND e() < 2.72 | true            |
      | degrees(pi())           | 180.0             |
      | haversin(0)             | 0.0               |
      | atan2(0.0, 1.0)         | 0.0               |
      | 17 % 5                  | 2                 |
      | -17 % 5                 | -2                |
      | 2 ^ 10                  | 1024.0            |
      | 17 / 5                  | 3                 |
      | -17 / 5                 | -3                |
      | 17 / 4.0                | 4.25              |
      | toInteger(8.99)         | 8                 |
      | toInteger('-31')        | -31               |
      | toIntegerOrNull('3x')   | null              |
      | toFloatOrNull('1e3')    | 1000.0            |
      | toFloat('nope')         | null              |
      | toBooleanOrNull(2.5)    | null              |
      | toBooleanOrNull('false') | false            |

  @math-errors
  Scenario: Integer division by zero is an arithmetic error
    Given any graph
    When executing query:
      """
      WITH 0 AS zero
      RETURN 5 / zero AS r
      """
    Then a ArithmeticError should be raised at runtime: *

  @math-errors
  Scenario: Integer overflow is an arithmetic error
    Given any graph
    When executing query:
      """
      WITH 9223372036854775807 AS big
      RETURN big + 1 AS r
      """
    Then a ArithmeticError should be raised at runtime: *
