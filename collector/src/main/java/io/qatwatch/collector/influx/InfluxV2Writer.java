package io.qatwatch.collector.influx;

import com.influxdb.client.InfluxDBClient;
import com.influxdb.client.InfluxDBClientFactory;
import com.influxdb.client.InfluxDBClientOptions;
import com.influxdb.client.domain.WritePrecision;
import com.influxdb.exceptions.InfluxException;
import java.time.Duration;
import java.util.List;
import okhttp3.OkHttpClient;

/** {@code POST /api/v2/write} through influxdb-client-java: InfluxDB 2.x, 3.x and 1.8+ (bucket "db/rp"). */
public final class InfluxV2Writer implements InfluxWriter {

    private final String url;
    private final String bucket;
    private final InfluxDBClient client;

    public InfluxV2Writer(String url, String org, String bucket, char[] token, Duration timeout) {
        this.url = url;
        this.bucket = bucket;
        OkHttpClient.Builder http = new OkHttpClient.Builder()
                .connectTimeout(timeout).readTimeout(timeout).writeTimeout(timeout).retryOnConnectionFailure(false);
        InfluxDBClientOptions.Builder options = InfluxDBClientOptions.builder()
                .url(url).org(org).bucket(bucket).okHttpClient(http);
        if (token != null) {
            options.authenticateToken(token);
        }
        this.client = InfluxDBClientFactory.create(options.build());
    }

    @Override
    public void write(List<String> lines) throws Exception {
        try {
            client.getWriteApiBlocking().writeRecords(WritePrecision.NS, lines);
        } catch (InfluxException e) {
            int status = e.status();
            if (status == 400 || status == 413 || status == 422) {
                throw new RejectedException("HTTP " + status + " from " + describe() + ": " + e.getMessage());
            }
            throw new java.io.IOException((status == 0 ? "" : "HTTP " + status + " ") + "from " + describe() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public String describe() {
        return url + " (v2, bucket " + bucket + ")";
    }

    @Override
    public void close() {
        client.close();
    }
}
