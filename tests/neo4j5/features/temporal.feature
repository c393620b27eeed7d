#encoding: utf-8
# Temporal values with named time zones, conversions between zones, DST gaps, epoch
# constructors, truncation and durations, as the Neo4j 5 manual documents them.

Feature: Temporal values and time zones

  @timezone
  Scenario Outline: <expr> renders as <r>
    Given any graph
    When executing query:
      """
      RETURN toString(<expr>) AS r
      """
    Then the result should be, in any order:
      | r   |
      | <r> |
    And no side effects

    Examples:
      | expr                                                                          | r                                         |
      | datetime('2024-07-01T08:30[Europe/Oslo]')                                     | '2024-07-01T08:30+02:00[Europe/Oslo]'     |
      | datetime('2024-01-01T08:30[Europe/Oslo]')                                     | '2024-01-01T08:30+01:00[Europe/Oslo]'     |
      | datetime({year: 2023, month: 11, day: 5, hour: 6, timezone: 'America/Chicago'}) | '2023-11-05T06:00-06:00[America/Chicago]' |
      | datetime({datetime: datetime('2024-03-01T12:00Z'), timezone: 'Asia/Kolkata'}) | '2024-03-01T17:30+05:30[Asia/Kolkata]'    |
      | datetime('2024-03-31T02:30[Europe/Berlin]')                                   | '2024-03-31T03:30+02:00[Europe/Berlin]'   |
      | datetime('2024-05-05T10:00+03:00')                                            | '2024-05-05T10:00+03:00'                  |
      | datetime.fromEpoch(86400, 0)                                                  | '1970-01-02T00:00Z'                       |
      | datetime.fromEpochMillis(1234)                                                | '1970-01-01T00:00:01.234Z'                |
      | date.truncate('month', date('2024-09-27'))                                    | '2024-09-01'                              |
      | datetime.truncate('hour', datetime('2024-09-27T13:47:12[Asia/Tokyo]'))        | '2024-09-27T13:00+09:00[Asia/Tokyo]'      |
      | date('2024-02-29') + duration('P1Y')                                          | '2025-02-28'                              |
      | duration.between(date('2024-01-10'), date('2024-03-15'))                     | 'P2M5D'                                   |
      | duration.inDays(date('2024-01-10'), date('2024-03-15'))                       | 'P65D'                                    |
      | localdatetime('2024-06-01T10:15:30')                                          | '2024-06-01T10:15:30'                     |
      | time('09:45:00+01:00')                                                        | '09:45+01:00'                             |

  @timezone
  Scenario: A zoned datetime exposes its zone name and offset
    Given any graph
    When executing query:
      """
      WITH datetime({year: 2024, month: 1, day: 15, hour: 9, timezone: 'America/New_York'}) AS dt
      RETURN dt.timezone AS tz, dt.offset AS off, dt.offsetSeconds AS secs
      """
    Then the result should be, in any order:
      | tz                 | off      | secs   |
      | 'America/New_York' | '-05:00' | -18000 |
    And no side effects

  @timezone
  Scenario: The same instant in two zones has the same epoch seconds
    Given any graph
    When executing query:
      """
      RETURN datetime('2024-06-01T12:00[Europe/London]').epochSeconds =
             datetime('2024-06-01T13:00[Europe/Paris]').epochSeconds AS same
      """
    Then the result should be, in any order:
      | same |
      | true |
    And no side effects

  @timezone
  Scenario: Week and day-of-week fields of a date
    Given any graph
    When executing query:
      """
      WITH date('2024-01-15') AS d
      RETURN d.week AS week, d.dayOfWeek AS dow, d.quarter AS q, d.ordinalDay AS od
      """
    Then the result should be, in any order:
      | week | dow | q | od |
      | 3    | 1   | 1 | 15 |
    And no side effects

  @timezone
  Scenario: An unknown time zone name is refused
    Given any graph
    When executing query:
      """
      WITH 'Atlantis/Capital' AS zone
      RETURN datetime({year: 2024, month: 1, day: 1, timezone: zone}) AS dt
      """
    Then a Error should be raised at runtime: *

  @timezone
  Scenario: A zoned datetime stored as a property keeps its zone
    Given an empty graph
    When executing query:
      """
      CREATE (m:Meeting {at: datetime('2024-10-27T09:00[Europe/Lisbon]')})
      RETURN m.at.timezone AS tz, toString(m.at) AS at
      """
    Then the result should be, in any order:
      | tz              | at                                   |
      | 'Europe/Lisbon' | '2024-10-27T09:00Z[Europe/Lisbon]'   |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 1 |
