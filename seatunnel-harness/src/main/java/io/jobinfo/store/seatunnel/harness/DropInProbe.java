package io.jobinfo.store.seatunnel.harness;

import io.jobinfo.store.seatunnel.dropin.DropInService;
import io.jobinfo.store.seatunnel.dropin.DropInSettings;

import java.util.HashMap;
import java.util.Map;

/**
 * Runs inside a member and returns its drop-in counters ({@code DropInMetrics.snapshot()}), plus {@code active} (1 once
 * the drop-in has started on the member, whatever its mode) and {@code passive} (1 if its {@code jobinfo-dropin} mode
 * is {@code passive}), or {@code {"installed": 0}} on a member without the drop-in.
 */
public final class DropInProbe extends MemberProbe<HashMap<String, Long>> {

    private static final long serialVersionUID = 1L;

    @Override
    public HashMap<String, Long> call() {
        HashMap<String, Long> out = new HashMap<>();
        DropInService service;
        try {
            service = DropInService.forInstance(instance());
        } catch (NoClassDefFoundError noPlugin) {
            service = null;
        }
        if (service == null) {
            out.put("installed", 0L);
            return out;
        }
        out.put("installed", 1L);
        out.put("active", service.active() ? 1L : 0L);
        out.put("passive", service.settings().mode() == DropInSettings.Mode.PASSIVE ? 1L : 0L);
        for (Map.Entry<String, Long> e : service.metrics().snapshot().entrySet()) {
            out.put(e.getKey(), e.getValue());
        }
        return out;
    }
}
