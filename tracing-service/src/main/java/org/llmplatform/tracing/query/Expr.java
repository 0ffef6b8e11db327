package org.llmplatform.tracing.query;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** The query language's tree (docs/tracing-service.md#query-language): operands, and operations that are boolean operands. */
public sealed interface Expr {

    record Literal(JsonNode value) implements Expr {
        boolean isNull() {
            return value.isNull();
        }
    }

    record GetField(String path) implements Expr {
    }

    record Convert(Expr input, ConvertTo to) implements Expr {
    }

    enum ConvertTo {
        DOUBLE, STRING, INT, BOOL, EXISTS
    }

    /** An expression whose value is a boolean; the top of a query is always one. */
    sealed interface Operation extends Expr {
    }

    record And(List<Operation> operands) implements Operation {
    }

    record Or(List<Operation> operands) implements Operation {
    }

    record Not(Operation operand) implements Operation {
    }

    record Compare(Comparison comparison, Expr left, Expr right) implements Operation {
    }

    enum Comparison {
        EQ("="), GT(">"), GTE(">="), LT("<"), LTE("<=");

        final String sql;

        Comparison(String sql) {
            this.sql = sql;
        }
    }

    record In(Expr operand, List<Expr> candidates) implements Operation {
    }

    record Contains(Expr input, Expr substring, boolean caseInsensitive) implements Operation {
    }

    /** A whole-token match: the token appears bounded by the start, the end or ASCII non-alphanumerics. */
    record ContainsToken(Expr input, Expr token, boolean caseInsensitive) implements Operation {
    }
}
