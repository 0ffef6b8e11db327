package org.llmplatform.tracing.query;

/** Which results a query returns: at most {@code limit} (null: all) after skipping {@code offset} (null: none). */
public record Page(Long limit, Long offset) {

    public static final Page ALL = new Page(null, null);

    /** The page a request names; a negative limit or offset is refused as the reference refuses it. */
    public static Page of(Long limit, Long offset) {
        if (limit != null && limit < 0) {
            throw InvalidQueryException.unsupported("Limit must be a positive integer");
        }
        if (offset != null && offset < 0) {
            throw InvalidQueryException.unsupported("Offset must be a positive integer");
        }
        return new Page(limit, offset);
    }

    /** The LIMIT and OFFSET clauses, each only when set. */
    String sql(SqlParams params) {
        String page = "";
        if (limit != null) {
            page += " LIMIT " + params.bind(limit, "bigint");
        }
        if (offset != null) {
            page += " OFFSET " + params.bind(offset, "bigint");
        }
        return page;
    }
}
