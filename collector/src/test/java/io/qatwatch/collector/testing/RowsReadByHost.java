package io.qatwatch.collector.testing;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.StoreCondition;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link Database} that counts the rows its reads got back from the server, by the host each row is of: what a
 * store's read actually fetched, whatever the store then keeps. A row's host is its {@code host} column; else the
 * text bound as the statement's first parameter (the per-instance reads' {@code WHERE host = ?}); else its {@code name} column (the
 * {@code hosts} table's); else none ({@code ""}: store positions). Writes are not counted.
 */
public final class RowsReadByHost implements Database {

    private final Database db;
    private final Map<String, Long> rows = new TreeMap<>();

    public RowsReadByHost(Database db) {
        this.db = db;
    }

    /** The rows read since the previous call, by host. */
    public synchronized Map<String, Long> take() {
        Map<String, Long> out = new TreeMap<>(rows);
        rows.clear();
        return out;
    }

    private synchronized void count(String host) {
        rows.merge(host == null ? "" : host, 1L, Long::sum);
    }

    @Override
    public Kind kind() {
        return db.kind();
    }

    @Override
    public StoreCondition condition() {
        return db.condition();
    }

    @Override
    public String where() {
        return db.where();
    }

    @Override
    public <T> T write(Work<T> work) throws SQLException, IOException {
        return db.write(work);
    }

    @Override
    public <T> T read(Work<T> work) throws SQLException, IOException {
        return db.read(c -> work.run(connection(c)));
    }

    @Override
    public int migrate(String component, List<String> steps) throws SQLException {
        return db.migrate(component, steps);
    }

    @Override
    public void close() throws SQLException {
        db.close();
    }

    /** A connection whose statements count the rows of their result sets. */
    private Connection connection(Connection target) {
        return (Connection) Proxy.newProxyInstance(RowsReadByHost.class.getClassLoader(), new Class<?>[] {Connection.class},
                (self, method, args) -> {
                    Object result = call(target, method, args);
                    if (result instanceof PreparedStatement s && method.getReturnType() == PreparedStatement.class) {
                        return statement(PreparedStatement.class, s);
                    }
                    return result instanceof Statement s && method.getReturnType() == Statement.class
                            ? statement(Statement.class, s) : result;
                });
    }

    /** A statement whose result sets count their rows, knowing the text bound as its first parameter. */
    @SuppressWarnings("unchecked")
    private <S extends Statement> S statement(Class<S> type, S target) {
        String[] first = new String[1];
        return (S) Proxy.newProxyInstance(RowsReadByHost.class.getClassLoader(), new Class<?>[] {type},
                (self, method, args) -> {
                    if (method.getName().equals("setString") && Integer.valueOf(1).equals(args[0])) {
                        first[0] = (String) args[1];
                    }
                    Object result = call(target, method, args);
                    return result instanceof ResultSet rs ? counted(rs, first[0]) : result;
                });
    }

    private static Object call(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** A result set that counts each row {@code next()} moves to, by the row's host. */
    private ResultSet counted(ResultSet target, String bound) throws SQLException {
        ResultSetMetaData meta = target.getMetaData();
        int host = 0;
        int name = 0;
        for (int i = meta.getColumnCount(); i >= 1; i--) {
            host = meta.getColumnLabel(i).equalsIgnoreCase("host") ? i : host;
            name = meta.getColumnLabel(i).equalsIgnoreCase("name") ? i : name;
        }
        int hostColumn = host;
        int nameColumn = bound == null ? name : 0;
        return (ResultSet) Proxy.newProxyInstance(RowsReadByHost.class.getClassLoader(), new Class<?>[] {ResultSet.class},
                (self, method, args) -> {
                    Object result = call(target, method, args);
                    if (method.getName().equals("next") && Boolean.TRUE.equals(result)) {
                        count(hostColumn > 0 ? target.getString(hostColumn)
                                : nameColumn > 0 ? target.getString(nameColumn) : bound);
                    }
                    return result;
                });
    }
}
