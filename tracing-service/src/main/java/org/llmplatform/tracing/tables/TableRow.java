package org.llmplatform.tracing.tables;

/** A row of a table as queried: its digest, canonical JSON and 0-based position in the table. */
public record TableRow(String digest, String valDump, long originalIndex) {
}
