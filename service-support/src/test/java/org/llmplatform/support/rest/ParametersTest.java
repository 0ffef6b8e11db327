package org.llmplatform.support.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.llmplatform.model.errors.ValidationIssue;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.rest.Parameters.In;

class ParametersTest {

    @Test
    void limitFallsBackWhenAbsentAndKeepsItsRange() {
        assertEquals(20, Parameters.limit(null, 20, 100));
        assertEquals(20, Parameters.limit("", 20, 100));
        assertEquals(1, Parameters.limit("1", 20, 100));
        assertEquals(100, Parameters.limit(" 100 ", 20, 100));
    }

    @Test
    void badLimitsAre422sNamingTheQueryParameter() {
        assertIssue(() -> Parameters.limit("ten", 20, 100), "int_parsing", List.of("query", "limit"), "ten",
                "Input should be a valid integer, unable to parse string as an integer");
        assertIssue(() -> Parameters.limit("0", 20, 100), "greater_than_equal", List.of("query", "limit"), "0",
                "Input should be greater than or equal to 1");
        assertIssue(() -> Parameters.limit("-3", 20, 100), "greater_than_equal", List.of("query", "limit"), "-3",
                "Input should be greater than or equal to 1");
        assertIssue(() -> Parameters.limit("101", 20, 100), "less_than_equal", List.of("query", "limit"), "101",
                "Input should be less than or equal to 100");
        assertIssue(() -> Parameters.limit("99999999999", 20, 100), "int_parsing", List.of("query", "limit"), "99999999999",
                "Input should be a valid integer, unable to parse string as an integer");
    }

    @Test
    void boundedIntNamesItsOwnParameter() {
        assertEquals(5, Parameters.boundedInt("5", In.PATH, "step", 0, 0, 10));
        assertIssue(() -> Parameters.boundedInt("11", In.PATH, "step", 0, 0, 10), "less_than_equal", List.of("path", "step"), "11",
                "Input should be less than or equal to 10");
        assertEquals(Optional.empty(), Parameters.optionalInt(null, In.QUERY, "step", 0, Integer.MAX_VALUE));
        assertEquals(Optional.of(0), Parameters.optionalInt("0", In.QUERY, "step", 0, Integer.MAX_VALUE));
        assertIssue(() -> Parameters.optionalInt("-1", In.QUERY, "step", 0, Integer.MAX_VALUE), "greater_than_equal",
                List.of("query", "step"), "-1", "Input should be greater than or equal to 0");
    }

    @Test
    void uuids() {
        UUID id = UUID.randomUUID();
        assertEquals(id, Parameters.uuid(id.toString(), In.PATH, "id"));
        assertIssue(() -> Parameters.uuid("step-3", In.PATH, "id"), "uuid_parsing", List.of("path", "id"), "step-3",
                "Input should be a valid UUID");
        assertIssue(() -> Parameters.uuid(null, In.PATH, "id"), "missing", List.of("path", "id"), null, "Field required");
        assertEquals(Optional.empty(), Parameters.optionalUuid(null, In.QUERY, "after"));
        assertEquals(Optional.empty(), Parameters.optionalUuid("", In.QUERY, "after"));
        assertEquals(Optional.of(id), Parameters.optionalUuid(id.toString(), In.QUERY, "after"));
        assertIssue(() -> Parameters.optionalUuid("x", In.QUERY, "after"), "uuid_parsing", List.of("query", "after"), "x",
                "Input should be a valid UUID");
    }

    @Test
    void requiredText() {
        assertEquals("team", Parameters.required("team", In.QUERY, "entity"));
        assertIssue(() -> Parameters.required(null, In.QUERY, "entity"), "missing", List.of("query", "entity"), null, "Field required");
        assertIssue(() -> Parameters.required("  ", In.QUERY, "entity"), "missing", List.of("query", "entity"), null, "Field required");
    }

    @Test
    void dates() {
        assertEquals(Optional.of(LocalDate.of(2026, 11, 25)), Parameters.optionalDate(" 2026-11-25 ", In.QUERY, "from"));
        assertEquals(Optional.empty(), Parameters.optionalDate("", In.QUERY, "from"));
        assertIssue(() -> Parameters.optionalDate("25.11.2026", In.QUERY, "to"), "date_from_datetime_parsing",
                List.of("query", "to"), "25.11.2026", "Input should be a valid date in the format YYYY-MM-DD");
    }

    private static void assertIssue(Runnable parse, String type, List<Object> loc, String input, String message) {
        ApiException error = assertThrows(ApiException.class, parse::run);
        assertEquals(422, error.status());
        assertEquals(List.of(new ValidationIssue(type, loc, message, input)), error.issues());
    }
}
