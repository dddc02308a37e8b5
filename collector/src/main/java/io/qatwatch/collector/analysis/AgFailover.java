package io.qatwatch.collector.analysis;

import java.time.Instant;

/**
 * The primary replica of an availability group moved, as the alert stage saw it between two reports: the replica whose
 * report says PRIMARY (the newest report when two do) is another than before.
 *
 * @param before {@code host/instance} of the old primary
 * @param after  {@code host/instance} of the new primary
 * @param at     when the new primary's first report saying so was collected
 */
public record AgFailover(String availabilityGroup, String before, String after, Instant at) {
}
