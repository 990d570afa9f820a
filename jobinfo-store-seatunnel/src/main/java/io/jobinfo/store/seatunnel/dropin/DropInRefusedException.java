package io.jobinfo.store.seatunnel.dropin;

/**
 * The drop-in refuses to let this member start: the plugin jar is installed but the member has no
 * {@code jobinfo-storage} configuration. Thrown while Hazelcast builds the member's services, before it joins, so the
 * member never becomes part (or master) of a cluster whose jobs it could not read.
 */
public class DropInRefusedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public DropInRefusedException(String message) {
        super(message);
    }
}
