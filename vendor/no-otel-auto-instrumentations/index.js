// Inngest's opt-in OTel middleware (inngest/experimental, not used by this service) asks for the
// Node auto-instrumentations when it creates a tracer provider; it gets none.
exports.getNodeAutoInstrumentations = () => [];
