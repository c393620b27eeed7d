#encoding: utf-8
# String concatenation with ||, normalize() and IS NORMALIZED, and the Neo4j 5 string functions
# (btrim, ltrim/rtrim with a trim character, trim(LEADING|TRAILING|BOTH ... FROM ...), lower,
# upper, left, right, substring, split on several delimiters, char_length, toStringOrNull, ...).

Feature: String functions

  @string-concat
  Scenario Outline: String expression <expr> gives <r>
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
      | expr                                 | r                 |
      | 'sun' \|\| 'set'                     | 'sunset'          |
      | 'a' \|\| 'b' \|\| 'c'                | 'abc'             |
      | 'left' \|\| null                     | null              |
      | null \|\| 'right'                    | null              |
      | '' \|\| ''                           | ''                |
      | btrim('--mid--', '-')                | 'mid'             |
      | btrim('   pad ')                     | 'pad'             |
      | ltrim('00042', '0')                  | '42'              |
      | rtrim('42!!!', '!')                  | '42'              |
      | ltrim('  lead')                      | 'lead'            |
      | rtrim('trail  ')                     | 'trail'           |
      | trim(LEADING 'z' FROM 'zzapzz')      | 'apzz'            |
      | trim(TRAILING 'z' FROM 'zzapzz')     | 'zzap'            |
      | trim(BOTH 'z' FROM 'zzapzz')         | 'ap'              |
      | trim(BOTH FROM '  ws  ')             | 'ws'              |
      | trim('  ws  ')                       | 'ws'              |
      | btrim(null, 'x')                     | null              |
      | lower('MiXeD')                       | 'mixed'           |
      | upper('MiXeD')                       | 'MIXED'           |
      | toLower('ÅSA')                       | 'åsa'             |
      | left('granite', 4)                   | 'gran'            |
      | right('granite', 3)                  | 'ite'             |
      | left('ab', 10)                       | 'ab'              |
      | left(null, 3)                        | null              |
      | substring('granite', 2, 3)           | 'ani'             |
      | substring('granite', 4)              | 'ite'             |
      | substring('abc', 5)                  | ''                |
      | split('k1=v1;k2=v2', ';')            | ['k1=v1', 'k2=v2'] |
      | split('a-b_c', ['-', '_'])           | ['a', 'b', 'c']   |
      | split('x,,y', ',')                   | ['x', '', 'y']    |
      | split(null, ',')                     | null              |
      | replace('banana', 'an', 'AN')        | 'bANANa'          |
      | reverse('stressed')                  | 'desserts'        |
      | char_length('façade')                | 6                 |
      | character_length('')                 | 0                 |
      | size('twelve chars')                 | 12                |
      | toStringOrNull(2.5)                  | '2.5'             |
      | toStringOrNull(['no'])               | null              |
      | toString(false)                      | 'false'           |
      | toString(3.0)                        | '3.0'             |
      | toString(duration('PT90M'))          | 'PT1H30M'         |
      | 'walrus' STARTS WITH 'wal'           | true              |
      | 'walrus' ENDS WITH 'rus'             | true              |
      | 'walrus' CONTAINS 'rl'               | false             |

  @string-concat
  Scenario: || concatenates string properties and skips nothing
    Given an empty graph
    And having executed:
      """
      CREATE (:Name {first: 'Ines', last: 'Moe'}), (:Name {first: 'Pia'})
      """
    When executing query:
      """
      MATCH (n:Name)
      RETURN n.first || ' ' || n.last AS full
      """
    Then the result should be, in any order:
      | full       |
      | 'Ines Moe' |
      | null       |
    And no side effects

  @normalize
  Scenario: normalize() defaults to NFC
    Given any graph
    When executing query:
      """
      RETURN normalize('A\u030A') = '\u00C5' AS composed, size(normalize('A\u030A')) AS len
      """
    Then the result should be, in any order:
      | composed | len |
      | true     | 1   |
    And no side effects

  @normalize
  Scenario: normalize() with NFD decomposes
    Given any graph
    When executing query:
      """
      RETURN size(normalize('\u00C5', NFD)) AS len, normalize('\u00C5', NFD) = 'A\u030A' AS same
      """
    Then the result should be, in any order:
      | len | same |
      | 2   | true |
    And no side effects

  @normalize
  Scenario: normalize() with NFKC folds compatibility characters
    Given any graph
    When executing query:
      """
      RETURN normalize('\uFB01', NFKC) AS folded, normalize('\uFB01', NFC) = '\uFB01' AS kept
      """
    Then the result should be, in any order:
      | folded | kept |
      | 'fi'   | true |
    And no side effects

  @normalize
  Scenario: IS NORMALIZED checks a form, NFC by default
    Given any graph
    When executing query:
      """
      RETURN '\u00C5' IS NORMALIZED AS nfc, 'A\u030A' IS NORMALIZED AS decomposed,
             'A\u030A' IS NFD NORMALIZED AS nfd, 'A\u030A' IS NOT NFC NORMALIZED AS notNfc
      """
    Then the result should be, in any order:
      | nfc  | decomposed | nfd  | notNfc |
      | true | false      | true | true   |
    And no side effects

  @normalize
  Scenario: normalize and IS NORMALIZED on null give null
    Given any graph
    When executing query:
      """
      RETURN normalize(null) AS n, null IS NORMALIZED AS isn
      """
    Then the result should be, in any order:
      | n    | isn  |
      | null | null |
    And no side effects

  @normalize
  Scenario: An unknown normal form is refused
    Given any graph
    When executing query:
      """
      RETURN normalize('abc', NFX) AS r
      """
    Then a SyntaxError should be raised at compile time: *

  @string-errors
  Scenario: left() with a negative length is an error
    Given any graph
    When executing query:
      """
      WITH -1 AS n
      RETURN left('abc', n) AS r
      """
    Then a Error should be raised at runtime: *

  @string-errors
  Scenario: The concatenation operator refuses a string and a number
    Given any graph
    When executing query:
      """
      WITH 'n' AS s, 1 AS i
      RETURN s || i AS r
      """
    Then a Error should be raised at any time: *
