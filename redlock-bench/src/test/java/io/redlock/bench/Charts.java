package io.redlock.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/**
 * PNG charts of the side-by-side results: {@code throughput.png} (pairs/s against pairs in flight, one line per
 * contestant, log-scale x) and {@code latency-inflight-N.png} per level (p50/p99/p99.9 per contestant, log-scale y).
 */
final class Charts {

    private static final int WIDTH = 1000;
    private static final int HEIGHT = 600;
    private static final List<String> PERCENTILES = List.of("p50", "p99", "p99.9");

    private Charts() {
    }

    /** Writes every chart into {@code dir} and returns the files. */
    static List<Path> write(List<LevelResult> results, Path dir) {
        System.setProperty("java.awt.headless", "true");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        List<Path> files = new ArrayList<>();
        files.add(save(throughput(results), dir.resolve("throughput.png")));
        for (int level : results.stream().map(LevelResult::inFlight).distinct().toList()) {
            files.add(save(latency(results, level), dir.resolve("latency-inflight-" + level + ".png")));
        }
        return files;
    }

    private static XYChart throughput(List<LevelResult> results) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Acquire + release pairs per second (5 nodes unless named)")
                .xAxisTitle("pairs in flight").yAxisTitle("pairs/s").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setXAxisLogarithmicDecadeOnly(false);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setXAxisDecimalPattern("#");
        chart.getStyler().setYAxisDecimalPattern("#,###");
        byContestant(results).forEach((name, rows) -> chart.addSeries(name,
                rows.stream().mapToDouble(LevelResult::inFlight).toArray(),
                rows.stream().mapToDouble(LevelResult::pairsPerSecond).toArray()));
        return chart;
    }

    private static CategoryChart latency(List<LevelResult> results, int level) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Latency of one acquire + release pair, " + level + " in flight")
                .xAxisTitle("percentile").yAxisTitle("µs (log scale)").build();
        List<LevelResult> rows = results.stream().filter(r -> r.inFlight() == level).toList();
        long smallest = rows.stream().mapToLong(LevelResult::p50Micros).min().orElse(1);
        chart.getStyler().setYAxisLogarithmic(true);
        // a bar chart's axis starts at 0 unless told otherwise, which a log scale cannot show
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(Math.max(1, smallest)))));
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setYAxisDecimalPattern("#,###");
        rows.forEach(r -> chart.addSeries(r.contestant(), PERCENTILES,
                List.of(r.p50Micros(), r.p99Micros(), r.p999Micros())));
        return chart;
    }

    private static Map<String, List<LevelResult>> byContestant(List<LevelResult> results) {
        Map<String, List<LevelResult>> series = new LinkedHashMap<>();
        results.forEach(r -> series.computeIfAbsent(r.contestant(), name -> new ArrayList<>()).add(r));
        return series;
    }

    private static Path save(Chart<?, ?> chart, Path file) {
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
