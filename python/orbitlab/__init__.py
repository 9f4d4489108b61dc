"""Orbit Lab in Python: local group-invariant kernel representations as scikit-learn estimators,
over the same C++ core as the Orbit Lab window and orbitlab-cli (python/README.md).

    X, y = orbitlab.load("digits.png", rotate=True, n=2000)
    pipe = make_pipeline(orbitlab.EvidenceLocality(orbitlab.InvariantRBFSampler(group="rotation",
             distribution="uniform:a=0.5", image_shape=(28, 28)), learn="a"),
             orbitlab.BayesianLinearClassifier())
"""

from ._orbitlab import MODEL_FORMAT_VERSION
from .data import Data, load
from .exact import InvariantGaussianProcess, InvariantGaussianProcessClassifier, InvariantKernelRidge
from .learners import BayesianLinearClassifier, BayesianLinearRegressor, SavedKernelRidge, SavedLinearModel
from .locality import EvidenceLocality
from .maps import GICDF, FeatureMap, InvariantNystroem, InvariantRBFSampler, SortedCoulomb
from .models import SavedExactModel, load_model, save_model
from .setting import SettingPipeline, TrainRun, decode_setting, from_setting, train
from .sweeps import move_atoms, sweep

__all__ = [
    "BayesianLinearClassifier", "BayesianLinearRegressor", "Data", "EvidenceLocality", "FeatureMap", "GICDF",
    "InvariantGaussianProcess", "InvariantGaussianProcessClassifier", "InvariantKernelRidge", "InvariantNystroem",
    "InvariantRBFSampler", "MODEL_FORMAT_VERSION", "SavedExactModel", "SavedKernelRidge", "SavedLinearModel",
    "SettingPipeline", "SortedCoulomb", "TrainRun", "decode_setting", "from_setting", "load", "load_model", "save_model",
    "move_atoms", "sweep", "train",
]
__version__ = "0.1.0"
