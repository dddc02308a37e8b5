/**
 * Log chains and restore plans (issue 31), pure: which backups restore a database to its latest point, across every
 * replica of its availability group, and where the chain is broken. LSNs are {@code numeric(25,0)} in msdb and are
 * compared as {@link java.math.BigInteger}s, never as longs or text.
 */
package io.qatwatch.collector.chain;
