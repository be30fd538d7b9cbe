import ReflexISP

extension SensorCalibration {
    /// What the simulated sensor is: gain 16 = 1×, its black level, no control delay beyond its own two frames.
    public static var simulated: SensorCalibration {
        var calibration = SensorCalibration()
        calibration.gainControl = "gain"
        calibration.gainUnity = Double(SimulatedCamera.gainUnity)
        calibration.blackLevel = SimulatedScene.blackLevel
        calibration.controlDelayFrames = SimulatedExposureLatency.framesOfDelay
        calibration.model = "Reflex simulated sensor"
        calibration.fNumber = 2.8
        calibration.focalLengthMillimetres = 4.4
        calibration.lensModel = "4.4mm f/2.8"
        // Its noise (SimulatedScene): σ = 0.3·√(signal·gain) + 2·gain sample units.
        let range = Double(SimulatedScene.whiteLevel - SimulatedScene.blackLevel)
        calibration.noiseProfile = NoiseProfile(scale: 0.09 / range, offset: 4 / (range * range))
        return calibration
    }
}
