package io.jobinfo.store.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The report's PNG charts (XChart), all drawn from the run's {@link Metrics}. */
final class Charts {

    private static final int W = 820;
    private static final int H = 460;

    private Charts() {
    }

    static CategoryChart bars(String title, String yTitle, boolean logY) {
        CategoryChart c = new CategoryChartBuilder().width(W).height(H).title(title).yAxisTitle(yTitle).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setYAxisLogarithmic(logY);
        c.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        c.getStyler().setLabelsVisible(true);
        c.getStyler().setLabelsFontColorAutomaticEnabled(false);
        c.getStyler().setLabelsFontColor(java.awt.Color.BLACK);
        c.getStyler().setLabelsPosition(0.95);
        c.getStyler().setOverlapped(false);
        c.getStyler().setXAxisMaxLabelCount(20);
        return c;
    }

    static XYChart lines(String title, String xTitle, String yTitle, boolean logX, boolean logY) {
        XYChart c = new XYChartBuilder().width(W).height(H).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        c.getStyler().setXAxisLogarithmic(logX);
        c.getStyler().setYAxisLogarithmic(logY);
        c.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        return c;
    }

    static XYSeries line(XYChart c, String name, List<Double> x, List<Double> y, boolean dashed) {
        XYSeries s = c.addSeries(name, x, y);
        s.setMarker(dashed ? SeriesMarkers.NONE : SeriesMarkers.CIRCLE);
        if (dashed) {
            s.setLineStyle(SeriesLines.DASH_DASH);
        }
        return s;
    }

    static void addBars(CategoryChart c, String series, List<String> x, List<Double> y) {
        List<String> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (int i = 0; i < x.size(); i++) {
            if (!Double.isNaN(y.get(i))) {
                xs.add(x.get(i));
                ys.add(y.get(i));
            }
        }
        if (!xs.isEmpty()) {
            c.addSeries(series, xs, ys);
            if (c.getStyler().isYAxisLogarithmic()) {
                // XChart draws log-scale bars from the axis minimum, which must be positive
                double min = ys.stream().mapToDouble(Double::doubleValue).filter(v -> v > 0).min().orElse(1);
                double floor = Math.pow(10, Math.floor(Math.log10(min)));
                Double current = c.getStyler().getYAxisMin();
                c.getStyler().setYAxisMin(current == null ? floor : Math.min(current, floor));
            }
        }
    }

    static void save(Chart<?, ?> chart, Path png) throws IOException {
        String file = png.toString();
        String withoutExt = file.endsWith(".png") ? file.substring(0, file.length() - 4) : file;
        BitmapEncoder.saveBitmap(chart, withoutExt, BitmapEncoder.BitmapFormat.PNG);
    }
}
