package io.qatwatch.collector.window;

import io.qatwatch.collector.window.CreepTrend.DatabaseDriver;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;
import java.util.function.Supplier;

/**
 * A creep trend's drivers, worked out the first time they are read: the per-database Theil–Sen fits cost more
 * than the trend itself, and only a creep that fires or is viewed needs them. Equal to any list of the same drivers.
 */
final class DriversOnDemand extends AbstractList<DatabaseDriver> implements RandomAccess {

    private Supplier<List<DatabaseDriver>> source;
    private volatile List<DatabaseDriver> drivers;

    DriversOnDemand(Supplier<List<DatabaseDriver>> source) {
        this.source = source;
    }

    private List<DatabaseDriver> drivers() {
        List<DatabaseDriver> d = drivers;
        if (d == null) {
            synchronized (this) {
                if (drivers == null) {
                    drivers = List.copyOf(source.get());
                    source = null;
                }
                d = drivers;
            }
        }
        return d;
    }

    @Override
    public DatabaseDriver get(int index) {
        return drivers().get(index);
    }

    @Override
    public int size() {
        return drivers().size();
    }
}
